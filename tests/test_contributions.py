"""Shared corrected photos: POST/GET/DELETE /api/contributions, and the store behind them."""
from __future__ import annotations

import io
import json
import os
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from app import create_app
from photo_helpers import gps_exif, make_photo
from recognition.contributions import ContributionStore, Limits, clean_photo
from web.errors import STATUS

BOUNDARY = "tenbou-test-boundary"


def _multipart(fields: dict[str, bytes | str]) -> bytes:
    """A multipart body built in memory (see tests/test_recognition_api.py for why)."""
    out = b""
    for name, value in fields.items():
        if isinstance(value, bytes):
            head = f'Content-Disposition: form-data; name="{name}"; filename="photo.jpg"\r\nContent-Type: application/octet-stream'
        else:
            head = f'Content-Disposition: form-data; name="{name}"'
            value = value.encode()
        out += f"--{BOUNDARY}\r\n{head}\r\n\r\n".encode() + value + b"\r\n"
    return out + f"--{BOUNDARY}--\r\n".encode()


def _post(client, image: bytes | None, labels: dict | str | None, **headers):
    fields = {}
    if image is not None:
        fields["image"] = image
    if labels is not None:
        fields["labels"] = labels if isinstance(labels, str) else json.dumps(labels)
    return client.post("/api/contributions", data=_multipart(fields),
                       content_type=f"multipart/form-data; boundary={BOUNDARY}", headers=headers)


LABELS = {"boxes": [{"tile": "1m", "box": [10, 20, 50, 80]}, {"tile": "0p", "box": [60, 20, 100, 80]},
                    {"tile": "7z", "box": [110, 20, 150, 80]}, {"tile": "back", "box": [160, 20, 200, 80]}],
          "image_size": [320, 200]}


@pytest.fixture
def folder(app):
    return app.config["CONTRIBUTIONS_DIR"]


def test_contribute_get_and_delete(client, folder):
    resp = _post(client, make_photo(), LABELS)
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    cid, token = body["id"], body["delete_token"]
    assert (body["width"], body["height"]) == (320, 200)
    assert body["boxes"] == [{"tile": b["tile"], "box": [float(v) for v in b["box"]]} for b in LABELS["boxes"]]
    assert sorted(os.listdir(folder)) == sorted([".lock", f"{cid}.jpg", f"{cid}.json"])
    sidecar = json.loads(Path(folder, f"{cid}.json").read_text())
    assert token not in json.dumps(sidecar), "only the token's hash is stored"
    assert sidecar["boxes"] == body["boxes"]

    auth = {"Authorization": f"Bearer {token}"}
    got = client.get(f"/api/contributions/{cid}", headers=auth)
    assert got.status_code == 200
    assert got.get_json()["boxes"] == body["boxes"] and "delete_token" not in got.get_json()
    assert "token_hash" not in got.get_json()

    # someone else's token, or none, cannot read or delete it
    other = _post(client, make_photo(), LABELS).get_json()
    for headers, status in (({}, 401), ({"Authorization": f"Bearer {other['delete_token']}"}, 403),
                            ({"Authorization": "Bearer nonsense"}, 403)):
        for method in ("get", "delete"):
            resp = getattr(client, method)(f"/api/contributions/{cid}", headers=headers)
            assert resp.status_code == status
            assert resp.get_json()["error"]["field"] == "Authorization"
    assert os.path.exists(os.path.join(folder, f"{cid}.jpg"))

    assert client.delete(f"/api/contributions/{cid}", headers=auth).status_code == 204
    assert not any(name.startswith(cid) for name in os.listdir(folder)), "photo and labels are gone"
    assert client.get(f"/api/contributions/{cid}", headers=auth).status_code == 404
    assert client.delete(f"/api/contributions/{cid}", headers=auth).status_code == 404
    assert os.path.exists(os.path.join(folder, f"{other['id']}.jpg")), "the other contribution is untouched"


def test_exif_and_gps_are_removed_and_the_photo_turned_upright(client, folder):
    # orientation 6: the camera held sideways; the upright picture is 200 wide, 320 high
    xmp = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description exif:GPSLatitude="35,39N"/></rdf:RDF></x:xmpmeta>'
    data = make_photo(exif=gps_exif(orientation=6), comment=b"shot at home", xmp=xmp)
    raw = Image.open(io.BytesIO(data))
    assert raw.getexif().get_ifd(0x8825), "the test photo carries GPS"
    assert b"PhoneMaker" in data and b"shot at home" in data and b"GPSLatitude" in data
    labels = {"boxes": [{"tile": "5s", "box": [10, 10, 190, 310]}], "image_size": [200, 320]}
    resp = _post(client, data, labels)
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert (body["width"], body["height"]) == (200, 320)
    stored = Path(folder, f"{body['id']}.jpg").read_bytes()
    for secret in (b"PhoneMaker", b"Exif", b"shot at home", b"GPSLatitude", b"xmpmeta"):
        assert secret not in stored
    im = Image.open(io.BytesIO(stored))
    assert im.size == (200, 320)
    assert not im.getexif(), "no EXIF block at all"
    assert "exif" not in im.info and "xmp" not in im.info and "comment" not in im.info
    # turned the way EXIF said: the red band (the original top) is now along the right edge
    px = np.asarray(im.convert("RGB")).astype(int)
    assert px[160, 190, 0] - px[160, 190, 2] > 100
    assert abs(px[160, 10, 0] - px[160, 10, 2]) < 40


def test_a_photo_without_orientation_keeps_its_pixels_as_they_lie(client, folder):
    data = make_photo(comment=b"kept out")
    resp = _post(client, data, LABELS)
    assert resp.status_code == 201
    with Image.open(Path(folder, f"{resp.get_json()['id']}.jpg")) as im:
        assert im.size == (320, 200) and "comment" not in im.info


def test_boxes_are_checked_against_the_upright_photo(client):
    data = make_photo(exif=gps_exif(orientation=6))  # 320x200 stored, 200x320 upright
    wide = {"boxes": [{"tile": "5s", "box": [10, 10, 300, 100]}]}
    resp = _post(client, data, wide)
    assert resp.status_code == 422
    assert resp.get_json()["error"]["field"] == "labels.boxes[0].box"


@pytest.mark.parametrize("labels,status,field", [
    ("{not json", 400, "labels"),
    ([1, 2], 400, "labels"),
    ({"boxes": "1m"}, 400, "labels.boxes"),
    ({"boxes": []}, 422, "labels.boxes"),
    ({"boxes": [{"tile": "8z", "box": [0, 0, 10, 10]}]}, 422, "labels.boxes[0].tile"),
    ({"boxes": [{"tile": "0z", "box": [0, 0, 10, 10]}]}, 422, "labels.boxes[0].tile"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 10, 10]}, {"tile": "10m", "box": [0, 0, 10, 10]}]}, 422, "labels.boxes[1].tile"),
    ({"boxes": [{"tile": 5, "box": [0, 0, 10, 10]}]}, 400, "labels.boxes[0].tile"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 10]}]}, 400, "labels.boxes[0].box"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, "a", 10]}]}, 400, "labels.boxes[0].box"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, True, 10]}]}, 400, "labels.boxes[0].box"),
    ('{"boxes": [{"tile": "1m", "box": [0, 0, 1%s, 10]}]}' % ("0" * 400), 400, "labels.boxes[0].box"),
    ('{"boxes": [{"tile": "1m", "box": [0, 0, NaN, 10]}]}', 400, "labels.boxes[0].box"),
    ("[" * 100_000, 400, "labels"),
    ({"boxes": [{"tile": "1m", "box": [30, 0, 10, 10]}]}, 422, "labels.boxes[0].box"),
    ({"boxes": [{"tile": "1m", "box": [-5, 0, 10, 10]}]}, 422, "labels.boxes[0].box"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 10, 201]}]}, 422, "labels.boxes[0].box"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 10, 10]}] * 61}, 422, "labels.boxes"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 10, 10]}], "image_size": [640, 480]}, 422, "labels.image_size"),
    ({"boxes": [{"tile": "1m", "box": [0, 0, 10, 10]}], "image_size": "big"}, 400, "labels.image_size"),
])
def test_bad_labels_are_refused_and_nothing_stored(client, folder, labels, status, field):
    resp = _post(client, make_photo(), labels)
    assert resp.status_code == status, resp.get_json()
    assert resp.get_json()["error"]["field"] == field
    assert not [n for n in os.listdir(folder) if not n.startswith(".")] if os.path.isdir(folder) else True


def test_sixty_boxes_and_every_kind_of_code_are_accepted(client):
    codes = [f"{d}{s}" for s in "mps" for d in "0123456789"] + [f"{d}z" for d in "1234567"] + ["back"]
    boxes = [{"tile": codes[i % len(codes)], "box": [i * 5, 0, i * 5 + 5, 10]} for i in range(60)]
    resp = _post(client, make_photo(), {"boxes": boxes})
    assert resp.status_code == 201, resp.get_json()
    assert len(resp.get_json()["boxes"]) == 60


@pytest.mark.parametrize("image,labels,status,field", [
    (None, LABELS, 400, "image"),
    (b"", LABELS, 400, "image"),
    (b"this is not a photo at all", LABELS, 415, "image"),
    ("photo", None, 400, "labels"),
])
def test_bad_uploads_are_refused(client, image, labels, status, field):
    resp = _post(client, make_photo() if image == "photo" else image, labels)
    assert resp.status_code == status
    assert resp.get_json()["error"]["field"] == field


def test_json_body_is_refused_with_415(client):
    resp = client.post("/api/contributions", json=LABELS)
    assert resp.status_code == 415
    assert resp.get_json()["error"]["field"] == "body"


def test_photo_size_and_pixel_caps(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                      "CONTRIBUTIONS_DIR": str(tmp_path / "c"), "CONTRIBUTION_MAX_PHOTO_BYTES": 20_000})
    client = app.test_client()
    noisy = io.BytesIO()
    Image.fromarray(np.random.default_rng(1).integers(0, 255, (300, 320, 3), np.uint8)).save(noisy, "PNG")
    assert len(noisy.getvalue()) > 20_000
    resp = _post(client, noisy.getvalue(), LABELS)
    assert resp.status_code == 413 and resp.get_json()["error"]["field"] == "image"
    with pytest.raises(Exception) as err:
        clean_photo(make_photo(6000, 5000, fmt="PNG"), Limits(photo_bytes=10 ** 9))
    assert STATUS[err.value.kind] == 413


def test_count_and_total_caps_refuse_with_507_and_keep_what_is_stored(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                      "CONTRIBUTIONS_DIR": str(tmp_path / "c"), "CONTRIBUTIONS_MAX_COUNT": 2})
    client = app.test_client()
    first = _post(client, make_photo(), LABELS).get_json()
    assert _post(client, make_photo(), LABELS).status_code == 201
    full = _post(client, make_photo(), LABELS)
    assert full.status_code == 507
    assert "no room" in full.get_json()["error"]["message"]
    assert len(ContributionStore(tmp_path / "c").records()) == 2
    # deleting one makes room again
    assert client.delete(f"/api/contributions/{first['id']}", headers={"Authorization": f"Bearer {first['delete_token']}"}).status_code == 204
    assert _post(client, make_photo(), LABELS).status_code == 201

    one_photo = len(clean_photo(make_photo())[0])
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                      "CONTRIBUTIONS_DIR": str(tmp_path / "d"), "CONTRIBUTIONS_MAX_BYTES": one_photo + 4096 + 100})
    client = app.test_client()
    assert _post(client, make_photo(), LABELS).status_code == 201
    assert _post(client, make_photo(), LABELS).status_code == 507


def test_rate_limited_per_client(tmp_path):
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
                      "CONTRIBUTIONS_DIR": str(tmp_path / "c"), "RATE_LIMITS": {"contribute": "2 per minute"},
                      "RATE_LIMIT_STRATEGY": "moving-window"})
    client = app.test_client()
    assert [_post(client, make_photo(), LABELS).status_code for _ in range(3)] == [201, 201, 429]
    resp = _post(client, make_photo(), LABELS)
    assert resp.status_code == 429 and int(resp.headers["Retry-After"]) >= 1


def test_a_crash_mid_write_leaves_no_half_record(tmp_path, monkeypatch):
    import recognition.contributions as mod

    store = ContributionStore(tmp_path / "c")
    real = mod._write_atomic
    calls = []

    def crash_on_sidecar(path, data):
        calls.append(path)
        if path.suffix == ".json":
            raise OSError("disk full")
        real(path, data)

    monkeypatch.setattr(mod, "_write_atomic", crash_on_sidecar)
    with pytest.raises(OSError):
        store.add(make_photo(), LABELS)
    monkeypatch.setattr(mod, "_write_atomic", real)
    assert store.records() == [], "a photo without its labels is not a contribution"
    assert not list((tmp_path / "c").glob(".tmp-*"))
    # the orphan photo is swept once it is old
    orphan = calls[0]
    assert orphan.exists()
    old = orphan.stat().st_mtime - mod.ORPHAN_AGE - 10
    os.utime(orphan, (old, old))
    store.add(make_photo(), LABELS)
    assert not orphan.exists()
    assert len(store.records()) == 1


def test_ids_that_are_not_ids_are_not_found(client):
    for cid in ("..%2f..%2fapp.py", ".lock", "a" * 100):
        resp = client.delete(f"/api/contributions/{cid}", headers={"Authorization": "Bearer x"})
        assert resp.status_code == 404


def test_a_16_bit_grey_png_is_shared_with_its_tones():
    a = np.full((300, 400), 0xE000, np.uint16)
    a[:, :200] = 0x2000
    ok, buf = cv2.imencode(".png", a)
    assert ok
    jpeg, w, h = clean_photo(buf.tobytes())
    pixels = np.asarray(Image.open(io.BytesIO(jpeg)).convert("L"))
    assert (w, h) == (400, 300)
    assert abs(int(np.median(pixels[:, :150])) - 0x20) <= 2 and abs(int(np.median(pixels[:, 250:])) - 0xE0) <= 2
