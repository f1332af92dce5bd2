"""Whatever JSON arrives, the engine answers or refuses with a ScoringError: never another exception."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring

FIELDS = ["ruleset", "rules", "hand", "melds", "win_tile", "win", "seat_wind", "round_wind", "riichi",
          "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "chankan_ankan", "tenhou",
          "chiihou", "renhou", "dora_indicators", "ura_indicators", "honba", "riichi_sticks", "compare", "discards"]
json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 200), st.floats(allow_nan=False),
                         st.sampled_from(["", "1m", "5z", "0p", "123m456p789s234m55p", "wrr", "ema", "east",
                                          "tsumo", "ron", "pon", "chi", "ankan", "777z", "1234m", "8z"]),
                         st.text(max_size=20))
json_values = st.recursive(json_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["type", "tiles", "kiriage", "uma", "x"]), inner, max_size=3)),
    max_leaves=8)
payloads = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=10)
near_valid = st.builds(
    lambda extra: {"hand": "123m456p789s234m55p", "win_tile": "4m", **extra},
    st.dictionaries(st.sampled_from(FIELDS[:2] + FIELDS[3:]), json_values, max_size=4))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(payloads, near_valid, json_values))
def test_score_and_waits_never_fail_unexpectedly(payload):
    for entry in (scoring.score, scoring.waits):
        try:
            result = entry(payload)
        except scoring.ScoringError as err:
            assert err.kind in ("malformed", "impossible") and err.message
        else:
            assert isinstance(result, dict)
