"""HTTPS for phones: `HTTPS=1 ./scripts/serve` puts Caddy (deploy/Caddyfile, its own local CA) in
front of gunicorn. Checked through Caddy on loopback: a certificate that verifies against that CA,
the phone's address forwarded to the app (and a forged one not), and the service worker registered
in Chromium (a secure context)."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import ssl

import pytest

from server_helpers import ROOT, Serve, assert_all_gone, clean_env, descendants, free_port

from .conftest import CHROMIUM_ARGS

CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(not CADDY and not os.environ.get("CI"),
                                reason="needs Caddy (Debian package 'caddy'; scripts/test installs it)")


@pytest.fixture(scope="module")
def https_server(tmp_path_factory):
    assert CADDY, "caddy is not installed (scripts/system-packages.txt)"
    tmp = tmp_path_factory.mktemp("https")
    port = free_port()
    server = Serve(ROOT, clean_env(
        HTTPS=1, PORT=port, CA_PORT=free_port(), CADDY_DIR=tmp / "caddy",
        DATABASE_URL=f"sqlite:///{tmp / 'tenbou.sqlite3'}",
        TENBOU_RATE_LIMITS__table_create="2 per minute", TENBOU_RATE_LIMIT_STRATEGY="moving-window"),
        pattern=r"on this computer: (https://\S+)")
    pids = descendants(server.proc.pid)
    ca = tmp / "caddy" / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    try:
        yield server, port, ca
    finally:
        code = server.stop()
        assert code == 0, server.text[-3000:]
        assert_all_gone(pids, server.text)


def request(port, method, path, ca, body=None, source="127.0.0.1", headers=None, host="127.0.0.1"):
    # verifies the chain and the address; ca=None: only the system's CAs, as a phone that trusts nothing yet
    ctx = ssl.create_default_context(cafile=str(ca) if ca else None)
    conn = http.client.HTTPSConnection(host, port, context=ctx, source_address=(source, 0), timeout=20)
    try:
        conn.request(method, path, body=json.dumps(body) if body is not None else None,
                     headers={"Content-Type": "application/json", **(headers or {})})
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def test_the_app_answers_over_https_with_a_certificate_from_the_local_ca(https_server):
    server, port, ca = https_server
    assert server.address == f"https://127.0.0.1:{port}"
    assert "Each phone trusts this server's own certificate authority once" in server.text
    for host in ("127.0.0.1", "localhost"):
        status, headers, body = request(port, "GET", "/healthz", ca, host=host)
        assert status == 200 and json.loads(body)["ok"] is True
    # the app knows the phone came over HTTPS (X-Forwarded-Proto from its trusted proxy)
    assert "max-age" in headers["Strict-Transport-Security"]
    with pytest.raises(ssl.SSLCertVerificationError):
        request(port, "GET", "/healthz", None)
    # the CA certificate a phone installs is offered over plain HTTP
    ca_port = int(server.text.split("/tenbou-ca.crt")[0].rsplit(":", 1)[1])
    conn = http.client.HTTPConnection("127.0.0.1", ca_port, timeout=10)
    conn.request("GET", "/tenbou-ca.crt")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.read() == ca.read_bytes()
    conn.close()


def test_the_phones_address_reaches_the_app_through_caddy(https_server):
    server, port, ca = https_server
    players = {"ruleset": "wrr", "players": ["a", "b", "c", "d"]}
    # phone A (127.0.0.2) uses up its two tables a minute; Caddy connects from 127.0.0.1 every time
    codes = [request(port, "POST", "/api/tables", ca, players, source="127.0.0.2")[0] for _ in range(3)]
    assert codes == [201, 201, 429]
    # phone B has its own count, however it dresses up its X-Forwarded-For
    forged = {"X-Forwarded-For": "127.0.0.9"}
    codes = [request(port, "POST", "/api/tables", ca, players, source="127.0.0.3", headers=forged)[0] for _ in range(3)]
    assert codes == [201, 201, 429]
    # and a forged header does not buy phone A a fresh bucket either
    assert request(port, "POST", "/api/tables", ca, players, source="127.0.0.2",
                   headers={"X-Forwarded-For": "127.0.0.77"})[0] == 429


def test_the_service_worker_registers_in_chromium_over_https(https_server, playwright, chromium_path):
    server, port, ca = https_server
    browser = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                         args=CHROMIUM_ARGS + ["--ignore-certificate-errors"])
    try:
        context = browser.new_context(ignore_https_errors=True, service_workers="allow")
        page = context.new_page()
        page.goto(f"https://localhost:{port}/")
        assert page.evaluate("window.isSecureContext") is True
        scope = page.evaluate("navigator.serviceWorker.ready.then((reg) => reg.scope)")
        assert scope == f"https://localhost:{port}/"
        page.reload()  # the next load is served under the worker's control
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=20_000)
        context.close()
    finally:
        browser.close()
