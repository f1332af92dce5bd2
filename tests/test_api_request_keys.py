"""A change sent again with its Idempotency-Key is made once: a phone whose wifi dropped after the
server stored a hand (so the answer never came) sends it again, and gets the table back rather than
a conflict it would resolve by recording the hand a second time."""
import pytest

from api_helpers import auth, new_table
from ledger_helpers import W, draw, hf, ron

HAND = ron(0, W(1, hf(2, 30)))


def keyed(table, version, key):
    return {**auth(table, version), "Idempotency-Key": key}


def hands(client, table):
    return client.get(f"/api/tables/{table['id']}").get_json()["hands"]


def test_a_hand_sent_again_with_its_key_is_recorded_once_and_answered_with_the_table(tclient):
    t = new_table(tclient)
    path = f"/api/tables/{t['id']}/hands"
    first = tclient.post(path, json=HAND, headers=keyed(t, 1, "hand-1"))
    assert first.status_code == 200 and first.get_json()["version"] == 2
    again = tclient.post(path, json=HAND, headers=keyed(t, 1, "hand-1"))
    assert again.status_code == 200, again.get_json()
    assert again.get_json() == first.get_json() and again.headers["ETag"] == '"2"'
    assert len(hands(tclient, t)) == 1
    # without the key, the same hand on the same old version is the conflict it always was
    plain = tclient.post(path, json=HAND, headers=auth(t, 1))
    assert plain.status_code == 409 and plain.get_json()["error"]["field"] == "If-Match"


def test_sent_again_after_another_phone_recorded_a_hand_the_table_now_is_the_answer(tclient):
    t = new_table(tclient)
    path = f"/api/tables/{t['id']}/hands"
    assert tclient.post(path, json=HAND, headers=keyed(t, 1, "mine")).status_code == 200
    other = draw([0, 2])
    assert tclient.post(path, json=other, headers=keyed(t, 2, "theirs")).status_code == 200
    again = tclient.post(path, json=HAND, headers=keyed(t, 1, "mine"))
    assert again.status_code == 200 and again.get_json()["version"] == 3
    assert [h["result"] for h in again.get_json()["hands"]] == ["ron", "draw"]


def test_a_key_that_made_another_change_is_refused_and_nothing_is_stored(tclient):
    t = new_table(tclient)
    path = f"/api/tables/{t['id']}/hands"
    assert tclient.post(path, json=HAND, headers=keyed(t, 1, "k1")).status_code == 200
    other = tclient.post(path, json=ron(2, W(3, hf(1, 30))), headers=keyed(t, 1, "k1"))
    assert other.status_code == 422
    error = other.get_json()["error"]
    assert error["field"] == "Idempotency-Key" and error["detail"]["id"] == "idempotency_key_reused"
    assert "another change" in error["message"]
    # on the current version too: a new change under a used key is refused
    resp = tclient.post(path, json=ron(2, W(3, hf(1, 30))), headers=keyed(t, 2, "k1"))
    assert resp.status_code == 422 and resp.get_json()["error"]["field"] == "Idempotency-Key"
    assert len(hands(tclient, t)) == 1


def test_keys_belong_to_one_table(tclient):
    a, b = new_table(tclient), new_table(tclient)
    for t in (a, b):
        resp = tclient.post(f"/api/tables/{t['id']}/hands", json=HAND, headers=keyed(t, 1, "same-key"))
        assert resp.status_code == 200
    assert len(hands(tclient, a)) == len(hands(tclient, b)) == 1


def test_an_undo_and_a_correction_sent_again_are_made_once(tclient):
    t = new_table(tclient)
    path = f"/api/tables/{t['id']}/hands"
    for version, key in ((1, "h1"), (2, "h2")):
        assert tclient.post(path, json=HAND, headers=keyed(t, version, key)).status_code == 200
    fixed = ron(0, W(1, hf(3, 30)))
    assert tclient.put(f"{path}/0", json=fixed, headers=keyed(t, 3, "fix")).status_code == 200
    assert tclient.put(f"{path}/0", json=fixed, headers=keyed(t, 3, "fix")).status_code == 200
    assert tclient.delete(f"{path}/last", headers=keyed(t, 4, "undo")).status_code == 200
    again = tclient.delete(f"{path}/last", headers=keyed(t, 4, "undo"))
    assert again.status_code == 200 and again.get_json()["version"] == 5
    shown = hands(tclient, t)
    assert len(shown) == 1 and shown[0]["winners"][0]["han"] == 3


@pytest.mark.parametrize("value", ["two words", "x" * 65, "ключ", "a,b", '"', "tab\there"])
def test_an_odd_key_is_a_400_naming_the_header_and_stores_nothing(tclient, value):
    t = new_table(tclient)
    resp = tclient.post(f"/api/tables/{t['id']}/hands", json=HAND, headers=keyed(t, 1, value))
    assert resp.status_code == 400
    error = resp.get_json()["error"]
    assert error["field"] == "Idempotency-Key" and error["detail"] == {"id": "idempotency_key", "params": {"max": 64}}
    assert hands(tclient, t) == []


def test_a_uuid_and_the_quoted_form_are_one_key(tclient):
    t = new_table(tclient)
    path = f"/api/tables/{t['id']}/hands"
    key = "6f1c2a4e-9b0d-4c8e-a1f3-2d5e7b9c0a11"
    assert tclient.post(path, json=HAND, headers=keyed(t, 1, key)).status_code == 200
    again = tclient.post(path, json=HAND, headers=keyed(t, 1, f'"{key}"'))
    assert again.status_code == 200 and len(hands(tclient, t)) == 1
