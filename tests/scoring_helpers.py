"""A compact way to write score requests in tests."""
import scoring


def melds(text: str) -> list[dict]:
    """'pon:777z chi:123m' -> the JSON melds list."""
    out = []
    for part in text.split():
        kind, tiles = part.split(":")
        out.append({"type": kind, "tiles": tiles})
    return out


def req(hand: str, win_tile: str | None = None, *, win: str = "ron", ruleset: str = "wrr", m: str = "",
        seat: str = "south", round_: str = "east", **extra) -> dict:
    payload = {"ruleset": ruleset, "hand": hand, "win": win, "seat_wind": seat, "round_wind": round_}
    if win_tile:
        payload["win_tile"] = win_tile
    if m:
        payload["melds"] = melds(m)
    payload.update(extra)
    return payload


def score(*args, **kwargs) -> dict:
    return scoring.score(req(*args, **kwargs))


def yaku_of(result: dict) -> dict:
    return {y["id"]: y["han"] for y in result["yaku"]}
