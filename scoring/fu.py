"""Fu (minipoints) with a breakdown a player can check line by line."""
from __future__ import annotations

from .hand import KOUTSU
from .tiles import DRAGONS, YAOCHUU, index_code
from .yaku import Context

WAIT_FU = {"kanchan": 2, "penchan": 2, "tanki": 2}
WAIT_NAMES = {"kanchan": "closed wait (kanchan)", "penchan": "edge wait (penchan)", "tanki": "pair wait (tanki)"}


def count_fu(ctx: Context, pinfu: bool) -> tuple[int, list[dict]]:
    """The fu of an interpretation, rounded as the rules say, with each line that makes it."""
    if ctx.form == "chiitoitsu":
        return 25, [{"id": "chiitoitsu", "label": "seven pairs (fixed)", "fu": 25}]
    if ctx.form == "kokushi":
        return 0, []
    rules = ctx.rules
    lines: list[dict] = [{"id": "base", "label": "winning (fuutei)", "fu": 20}]
    if pinfu and ctx.tsumo:
        return 20, lines + [{"id": "pinfu_tsumo", "label": "pinfu tsumo: no tsumo fu", "fu": 0}]
    if ctx.closed and not ctx.tsumo:
        lines.append({"id": "menzen_ron", "label": "closed hand won on a discard", "fu": 10})
    if ctx.tsumo and ("rinshan" not in ctx.flags or rules.rinshan_tsumo_fu):
        lines.append({"id": "tsumo", "label": "self-draw", "fu": 2})
    if ctx.wait in WAIT_FU and "tenhou" not in ctx.flags:
        lines.append({"id": "wait", "label": WAIT_NAMES[ctx.wait], "fu": WAIT_FU[ctx.wait]})
    for kind, index, concealed, kan, _called in ctx.groups:
        if kind != KOUTSU:
            continue
        fu = 2 * (2 if index in YAOCHUU else 1) * (2 if concealed else 1) * (4 if kan else 1)
        what = ("concealed " if concealed else "open ") + ("kan" if kan else "triplet")
        grade = "terminals/honours" if index in YAOCHUU else "simples"
        lines.append({"id": "group", "label": f"{what} of {grade} ({index_code(index) * (4 if kan else 3)})", "fu": fu})
    pair_fu = 0
    if ctx.pair in DRAGONS:
        pair_fu = 2
    elif ctx.pair == ctx.seat_wind and ctx.pair == ctx.round_wind:
        pair_fu = rules.double_wind_pair_fu
    elif ctx.pair in (ctx.seat_wind, ctx.round_wind):
        pair_fu = 2
    if pair_fu:
        lines.append({"id": "pair", "label": f"pair of value tiles ({index_code(ctx.pair) * 2})", "fu": pair_fu})
    raw = sum(line["fu"] for line in lines)
    if raw == 20 and not ctx.closed:
        lines.append({"id": "open_pinfu", "label": "open hand with no fu (open pinfu)", "fu": 2})
        raw += 2
    return -(-raw // 10) * 10, lines
