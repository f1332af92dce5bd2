"""Fu (minipoints) with a breakdown a player can check line by line.

:func:`count_fu` keeps each line as a tuple ``(id, fu, detail)``; :func:`fu_details` writes the
lines of the chosen interpretation out for the player (only that one needs labels).
"""
from __future__ import annotations

from typing import Any

from .hand import KOUTSU
from .tiles import DRAGONS, YAOCHUU, index_code
from .yaku import Context

WAIT_FU = {"kanchan": 2, "penchan": 2, "tanki": 2}
LABELS = {
    "chiitoitsu": "seven pairs (fixed)", "base": "winning (fuutei)", "pinfu_tsumo": "pinfu tsumo: no tsumo fu",
    "menzen_ron": "closed hand won on a discard", "tsumo": "self-draw", "kanchan": "closed wait (kanchan)",
    "penchan": "edge wait (penchan)", "tanki": "pair wait (tanki)", "open_pinfu": "open hand with no fu (open pinfu)",
}


#: One line of the fu count: (id, fu, detail); the detail is -1, or (index, concealed, kan) for a
#: group, or (index, reason) for a pair (fu_details reads it by the id).
FuLine = tuple[str, int, Any]


def count_fu(ctx: Context, pinfu: bool) -> tuple[int, list[FuLine]]:
    """The fu of an interpretation, rounded as the rules say, with each line that makes it."""
    if ctx.form == "chiitoitsu":
        return 25, [("chiitoitsu", 25, -1)]
    if ctx.form == "kokushi":
        return 0, []
    rules = ctx.rules
    lines: list[FuLine] = [("base", 20, -1)]
    if pinfu and ctx.tsumo:
        return 20, [("base", 20, -1), ("pinfu_tsumo", 0, -1)]
    raw = 20
    if ctx.closed and not ctx.tsumo:
        lines.append(("menzen_ron", 10, -1))
        raw += 10
    if ctx.tsumo and ("rinshan" not in ctx.flags or rules.rinshan_tsumo_fu):
        lines.append(("tsumo", 2, -1))
        raw += 2
    if ctx.wait in WAIT_FU and "tenhou" not in ctx.flags:
        lines.append((ctx.wait, 2, -1))
        raw += 2
    for kind, index, concealed, kan, _called in ctx.groups:
        if kind != KOUTSU:
            continue
        fu = 2 * (2 if index in YAOCHUU else 1) * (2 if concealed else 1) * (4 if kan else 1)
        lines.append(("group", fu, (index, concealed, kan)))
        raw += fu
    pair_fu = 0
    why = ""
    if ctx.pair in DRAGONS:
        pair_fu, why = 2, "dragon"
    elif ctx.pair == ctx.seat_wind and ctx.pair == ctx.round_wind:
        pair_fu, why = rules.double_wind_pair_fu, "double_wind"
    elif ctx.pair == ctx.seat_wind:
        pair_fu, why = 2, "seat_wind"
    elif ctx.pair == ctx.round_wind:
        pair_fu, why = 2, "round_wind"
    if pair_fu:
        lines.append(("pair", pair_fu, (ctx.pair, why)))
        raw += pair_fu
    if raw == 20 and not ctx.closed:
        lines.append(("open_pinfu", 2, -1))
        raw += 2
    return -(-raw // 10) * 10, lines


def fu_details(lines: list[FuLine]) -> list[dict[str, Any]]:
    """The lines of :func:`count_fu` as the player reads them.

    Each line is ``{"id", "label", "fu"}``: ``label`` is English for API users; the other keys let
    an app write the line in its own words. A group line (``id`` "group") adds ``tiles`` (mpsz, the
    whole group), ``concealed``, ``kan`` and ``terminal`` (terminals or honours); a pair line adds
    ``tiles`` and ``reason`` (dragon, seat_wind, round_wind or double_wind); a wait line (``id``
    "wait") adds ``wait`` (kanchan, penchan or tanki).
    """
    out = []
    for line_id, fu, detail in lines:
        line: dict[str, Any] = {"id": line_id, "label": "", "fu": fu}
        if line_id == "group":
            index, concealed, kan = detail
            what = ("concealed " if concealed else "open ") + ("kan" if kan else "triplet")
            terminal = index in YAOCHUU
            grade = "terminals/honours" if terminal else "simples"
            code = index_code(index)
            tiles = f"{code[0] * (4 if kan else 3)}{code[1]}"
            line.update(label=f"{what} of {grade} ({tiles})", tiles=tiles, concealed=bool(concealed), kan=bool(kan),
                        terminal=terminal)
        elif line_id == "pair":
            index, why = detail
            code = index_code(index)
            tiles = f"{code[0] * 2}{code[1]}"
            line.update(label=f"pair of value tiles ({tiles})", tiles=tiles, reason=why)
        elif line_id in WAIT_FU:
            line.update(id="wait", label=LABELS[line_id], wait=line_id)
        else:
            line["label"] = LABELS[line_id]
        out.append(line)
    return out
