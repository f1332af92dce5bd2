"""Security headers, size caps, and errors that reveal nothing internal (rate limits: test_limits.py)."""


def test_security_headers_on_api_and_pages(client):
    for path in ("/api/rulesets", "/api/nope"):
        resp = client.get(path)
        csp = resp.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
        assert "frame-ancestors 'none'" in csp
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["Referrer-Policy"] == "no-referrer"


def test_json_bodies_are_capped(client, app):
    app.config["MAX_JSON_BYTES"] = 1024
    resp = client.post("/api/score", data='{"hand": "' + "1m" * 2000 + '"}', content_type="application/json")
    assert resp.status_code == 413
    assert resp.get_json()["error"]["field"] == "body"


def test_uploads_over_20_mb_are_refused(client):
    resp = client.post("/api/recognize", data=b"x" * (20 * 1024 * 1024 + 1), content_type="application/octet-stream")
    assert resp.status_code == 413
    assert "error" in resp.get_json()


def test_unexpected_errors_reveal_nothing(app, client):
    @app.get("/api/boom")
    def boom():
        raise RuntimeError("secret path /work/main/instance/db")

    app.config["PROPAGATE_EXCEPTIONS"] = False
    resp = client.get("/api/boom")
    assert resp.status_code == 500
    text = resp.get_data(as_text=True)
    assert "secret" not in text and "Traceback" not in text and "/work" not in text
    assert resp.get_json()["error"]["message"]


def test_healthz_reports_database_and_model(client):
    resp = client.get("/healthz")
    body = resp.get_json()
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["model"] in ("ok", "not loaded")
    assert resp.status_code == (200 if body["checks"]["model"] == "ok" else 503)
