def test_unknown_api_route_is_json_404(client):
    resp = client.get("/api/nope")
    assert resp.status_code == 404
    assert resp.get_json()["error"]["message"]


def test_create_app_mapping_overrides_config(app):
    assert app.config["TESTING"] is True
    assert app.config["DATABASE_URL"].startswith("sqlite:///")
