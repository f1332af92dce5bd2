"""Hands as the table API takes them, written compactly (ron, tsumo, draw, a han/fu or yakuman
value), and Hypothesis strategies for random hands and random legal games."""
from __future__ import annotations

from hypothesis import strategies as st

from game.ledger import LedgerError, apply_hand, new_state


def ron(frm, *winners, riichi=(), **extra):
    return {"result": "ron", "from_seat": frm, "riichi": list(riichi),
            "winners": [{"seat": s, "value": v, **({"pao_seat": p} if p is not None else {})} for s, v, p in winners], **extra}


def tsumo(seat, value, riichi=(), pao=None, **extra):
    return {"result": "tsumo", "winner": {"seat": seat, "value": value, "pao_seat": pao}, "riichi": list(riichi), **extra}


def draw(tenpai=(), riichi=(), nagashi=()):
    return {"result": "draw", "tenpai": list(tenpai), "riichi": list(riichi), "nagashi": list(nagashi)}


def hf(han, fu):
    return {"han": han, "fu": fu}


def ym(n=1, **kw):
    return {"yakuman": n, **kw}


W = lambda s, v, p=None: (s, v, p)  # noqa: E731


seats = st.integers(0, 3)


seat_sets = st.sets(seats).map(sorted)


values = st.one_of(
    st.builds(hf, st.integers(1, 13), st.sampled_from([30, 40, 50, 60, 70, 110])),
    st.builds(hf, st.integers(2, 4), st.just(25)),
    st.builds(ym, st.integers(1, 2)),
)


@st.composite
def hands(draw_):
    kind = draw_(st.sampled_from(["ron", "ron", "tsumo", "tsumo", "draw", "draw", "abort", "chombo"]))
    riichi = draw_(seat_sets)
    if kind == "ron":
        frm = draw_(seats)
        winners = draw_(st.lists(st.sampled_from([s for s in range(4) if s != frm]), min_size=1, max_size=3, unique=True))
        pao = draw_(st.one_of(st.none(), seats))
        return ron(frm, *[W(s, draw_(values), pao if n == 0 else None) for n, s in enumerate(winners)], riichi=riichi)
    if kind == "tsumo":
        return tsumo(draw_(seats), draw_(values), riichi=riichi, pao=draw_(st.one_of(st.none(), seats)))
    if kind == "draw":
        tenpai = draw_(seat_sets)
        return draw(tenpai=tenpai, riichi=[s for s in riichi if s in tenpai], nagashi=draw_(st.sets(seats, max_size=1).map(sorted)))
    if kind == "abort":
        return {"result": "abort", "kind": draw_(st.sampled_from(["nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron"])),
                "riichi": [0, 1, 2, 3] if draw_(st.booleans()) else riichi}
    return {"result": "chombo", "seat": draw_(seats)}


def legal_log(rules, candidates):
    """Keep the candidates that the ledger accepts, in order: a random legal game."""
    state, log = new_state(rules), []
    for hand in candidates:
        try:
            state, _ = apply_hand(rules, state, hand)
        except LedgerError:
            continue
        log.append(hand)
    return state, log
