"""Run Tenbou for a real table: gunicorn with gunicorn.conf.py, and with HTTPS=1 Caddy in front of it.

Started by ./scripts/serve after the setup. It prints the addresses phones can use, with a QR code
for each, and stops every process it started on Ctrl-C (SIGINT) or SIGTERM. Settings (environment):
HOST, PORT, HTTPS, WEB_CONCURRENCY, THREADS, DATABASE_URL, REDIS_URL, TRUSTED_PROXIES, CADDY_DIR;
see the README's settings table.
"""
from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CADDYFILE = ROOT / "deploy" / "Caddyfile"
NO_HTTPS = ("Plain HTTP: phones can score hands, take photos and keep tables; working offline (the service "
            "worker), installing to the home screen, 'Copy link' and 'Share' need HTTPS: "
            "HTTPS=1 ./scripts/serve")


def say(text: str = "") -> None:
    print(text, flush=True)


def truthy(value: str | None) -> bool:
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other phones could reach (no loopback)."""
    found: list[str] = []
    try:  # the address of the interface with the default route (no packet is sent)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    out = []
    for addr in found:
        ip = ipaddress.ip_address(addr)
        if not ip.is_loopback and not ip.is_unspecified and not ip.is_link_local and addr not in out:
            out.append(addr)
    return out


def hosts_for(host: str) -> tuple[list[str], list[str]]:
    """(addresses for this computer, addresses for phones) when listening on ``host``."""
    if host in ("0.0.0.0", "", "*", "::"):
        return ["127.0.0.1"], lan_addresses()
    try:
        if ipaddress.ip_address(host).is_loopback:
            return [host], []
    except ValueError:
        if host == "localhost":
            return ["127.0.0.1"], []
    return [], [host]


def url(scheme: str, host: str, port: int) -> str:
    return f"{scheme}://{host}:{port}" if ":" not in host else f"{scheme}://[{host}]:{port}"


def qr(text: str) -> str:
    import io

    import segno
    buf = io.StringIO()
    segno.make(text, error="m").terminal(out=buf, compact=True, border=2)
    return buf.getvalue()


def wait_until_up(check_url: str, procs: list[subprocess.Popen], timeout: float = 180, context=None) -> dict:
    """Poll /healthz until the server answers; its JSON answer (ok or not)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for proc in procs:
            if proc.poll() is not None:
                raise SystemExit(f"serve: {proc.args[0]} stopped (exit {proc.returncode}) before it was up; see above")
        try:
            with urllib.request.urlopen(check_url, timeout=10, context=context) as resp:
                return json.loads(resp.read())
        except urllib.error.HTTPError as err:  # it answered, and says what is wrong
            try:
                return json.loads(err.read())
            except ValueError:
                return {"ok": False, "checks": {"status": err.code}}
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    raise SystemExit(f"serve: nothing answered at {check_url} within {timeout:.0f} s")


def ca_fingerprint(pem_path: Path) -> str:
    pem = pem_path.read_text()
    body = "".join(line for line in pem.splitlines() if line and not line.startswith("-----"))
    digest = hashlib.sha256(base64.b64decode(body)).hexdigest().upper()
    return ":".join(digest[i:i + 2] for i in range(0, len(digest), 2))


def main() -> int:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "5000"))
    https = truthy(os.environ.get("HTTPS"))
    env = dict(os.environ)
    procs: list[subprocess.Popen] = []

    local, phones = hosts_for(host)
    if https:
        caddy = env.get("CADDY", "caddy")
        caddy_dir = Path(env.get("CADDY_DIR") or ROOT / "instance" / "caddy").resolve()
        caddy_dir.mkdir(parents=True, exist_ok=True)
        upstream = free_port()
        ca_port = int(env.get("CA_PORT") or port + 1)
        env["BIND"] = f"127.0.0.1:{upstream}"
        env.setdefault("TRUSTED_PROXIES", "127.0.0.1")   # Caddy says who the phone is
        env.setdefault("FORWARDED_ALLOW_IPS", "127.0.0.1")
        names = sorted({*local, *phones, "localhost"} - {"0.0.0.0"})
        env.update({
            "TENBOU_SITES": ", ".join(url("https", h, port) for h in names),
            "TENBOU_UPSTREAM": f"127.0.0.1:{upstream}",
            "TENBOU_CA_SITE": f"http://:{ca_port}" if host in ("0.0.0.0", "", "*", "::") else url("http", host, ca_port),
            "TENBOU_CADDY_DIR": str(caddy_dir),
            "XDG_DATA_HOME": str(caddy_dir / "data"), "XDG_CONFIG_HOME": str(caddy_dir / "config"),
            "HOME": str(caddy_dir),
        })
    else:
        env["BIND"] = f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"

    def stop(signum=None, _frame=None):
        for proc in reversed(procs):  # the proxy first, then the app behind it
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 25
        for proc in procs:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def on_signal(signum, frame):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        say("\nserve: stopping ...")
        stop()
        say("serve: stopped")
        raise SystemExit(0)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        say(f"serve: starting gunicorn ({env.get('WEB_CONCURRENCY', '2')} workers) ...")
        # own process groups: the terminal's Ctrl-C reaches us alone, and we stop each in order
        procs.append(subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
                                      cwd=ROOT, env=env, start_new_session=True))
        if https:
            wait_until_up(f"http://{env['BIND']}/healthz", procs)
            say("serve: starting Caddy (HTTPS with its own local certificate authority) ...")
            procs.append(subprocess.Popen([caddy, "run", "--adapter", "caddyfile", "--config", str(CADDYFILE)],
                                          cwd=ROOT, env=env, start_new_session=True))
            import ssl
            insecure = ssl.create_default_context()
            insecure.check_hostname = False
            insecure.verify_mode = ssl.CERT_NONE
            health = wait_until_up(url("https", "127.0.0.1" if local else phones[0], port) + "/healthz", procs,
                                   context=insecure)
        else:
            health = wait_until_up(url("http", local[0] if local else phones[0], port) + "/healthz", procs)
        banner(host, port, https, local, phones, env)
        if not health.get("ok"):
            say(f"warning: the server is up but not healthy: {health.get('checks')} (GET /healthz)")
        say("Serving; press Ctrl-C to stop.")
        while True:
            for proc in procs:
                if proc.poll() is not None:
                    say(f"serve: {proc.args[0]} stopped (exit {proc.returncode}); stopping the rest")
                    stop()
                    return proc.returncode or 1
            time.sleep(0.5)
    except SystemExit:
        stop()
        raise
    except BaseException:
        stop()
        raise


def banner(host: str, port: int, https: bool, local: list[str], phones: list[str], env: dict) -> None:
    scheme = "https" if https else "http"
    say("")
    say(f"Tenbou is up ({'HTTPS through Caddy' if https else 'plain HTTP'}; gunicorn, "
        f"{env.get('WEB_CONCURRENCY', '2')} workers).")
    for h in local:
        say(f"  on this computer: {url(scheme, h, port)}")
    if not phones:
        say("  phones: none. This address is this computer's alone; to let the phones at the table in, "
            "start it with HOST=0.0.0.0 ./scripts/serve")
    for h in phones:
        say(f"  phones on this network ({'HTTPS' if https else 'HTTP, not HTTPS'}): {url(scheme, h, port)}")
        say(qr(url(scheme, h, port)))
    if https:
        ca = Path(env["TENBOU_CADDY_DIR"]) / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        ca_port = env["TENBOU_CA_SITE"].rsplit(":", 1)[1]
        say("Each phone trusts this server's own certificate authority once:")
        for h in phones or local:
            say(f"  1. open {url('http', h, int(ca_port))}/tenbou-ca.crt on the phone (the certificate: {ca})")
        if ca.exists():
            say(f"     its SHA-256 fingerprint: {ca_fingerprint(ca)}")
        say("  2. Android: Settings > Security > More security settings > Encryption & credentials > "
            "Install a certificate > CA certificate, and pick the downloaded file.")
        say("     iPhone: open the downloaded profile in Settings > General > VPN & Device Management, install "
            "it, then turn it on under Settings > General > About > Certificate Trust Settings.")
        say("  3. open the https address above (or scan its QR code).")
    else:
        say(NO_HTTPS)


if __name__ == "__main__":
    sys.exit(main())
