"""The game ledger: a table's running scores, replayed from its log of hands.

Pure functions over immutable values. :func:`replay` folds :func:`apply_hand` over the hand log
from :func:`new_state`; every rule-set difference is a field of the :class:`~scoring.rules.Ruleset`.

A hand is a JSON object (the body of ``POST /api/tables/<id>/hands``)::

    {"result": "ron", "from_seat": 0, "winners": [{"seat": 2, "value": V, "pao_seat": null}], "riichi": [1]}
    {"result": "tsumo", "winner": {"seat": 2, "value": V, "pao_seat": null}, "riichi": []}
    {"result": "draw", "tenpai": [0, 2], "riichi": [2], "nagashi": []}
    {"result": "abort", "kind": "nine_terminals", "riichi": []}
    {"result": "chombo", "seat": 1}
    {"result": "end"}                      (the session stops here: standings are final)

with ``V`` one of ``{"han": 3, "fu": 40}``, ``{"limit": "mangan"}`` (a limit entered as a limit: its record
keeps no han or fu nobody entered), ``{"yakuman": 1}`` or ``{"hand": <score request>}``.

Points are conserved: the four scores plus the riichi sticks on the table always add up to four
starting scores (chombo point penalties are kept apart, off the table).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.engine import evaluate, parse_request
from scoring.errors import ScoringError
from scoring.points import base_points, hand_payments, payment_total, round_up_100
from scoring.rules import Ruleset, get_ruleset
from scoring.schema import only_declared, validator
from scoring.tiles import WIND_NAMES

from . import contract
from .contract import LIMIT_BASES, MAX_REASON, RESULTS


def printable(text: str) -> bool:
    """No control characters and no lone surrogates (they cannot be written as UTF-8)."""
    return all(ch >= " " and not "\x7f" <= ch <= "\x9f" and not "\ud800" <= ch <= "\udfff" for ch in text)

ROUND_NAMES = WIND_NAMES
TABLE = "table"  # the pot of riichi sticks in payment records


class LedgerError(ScoringError):
    """A hand that cannot be recorded (HTTP 422 unless malformed)."""


@dataclass(frozen=True)
class TableState:
    scores: tuple[int, ...]
    round_index: int = 0          # 0 east, 1 south, 2 west; the round after the last regular one is the extension
    hand_number: int = 1          # 1..4 within the round
    dealer: int = 0
    honba: int = 0
    riichi_sticks: int = 0
    penalties: tuple[int, ...] = (0, 0, 0, 0)
    finished: bool = False
    hands_played: int = 0

    def seat_wind(self, seat: int) -> str:
        return WIND_NAMES[(seat - self.dealer) % 4]

    @property
    def round_wind(self) -> str:
        return ROUND_NAMES[self.round_index]


def new_state(rules: Ruleset) -> TableState:
    return TableState(scores=(rules.start_points,) * 4)


# --- input checks ------------------------------------------------------------------------------

def _shown(value: Any) -> str:
    """A client's value for an error message, cut short when it is huge."""
    if isinstance(value, int) and not isinstance(value, bool) and not -10**12 < value < 10**12:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _seat(value: Any, field: str) -> int:
    _check_seat(value, field)
    seat: int = value
    return seat


def _seats(body: Mapping[str, Any], name: str) -> list[int]:
    raw = body.get(name, [])
    _check_seats(raw, name)
    return sorted(raw) if raw else []


# --- the fields a hand may carry ---------------------------------------------------------------

# The hand's declared shape (game/contract.py) is the one source of which fields exist; these are read
# from it for the code that names them.
_HAND = contract.hand()
_VALUE = contract.value()
#: The input fields of each kind of result (see the module docstring); every hand may also carry
#: referee ``penalties``, and a hand after which the dealer may stop the game ``continue_game``.
RESULT_FIELDS: Mapping[str, tuple[str, ...]] = {kind: contract.fields_of(kind) for kind in RESULTS}
#: Fields of a hand's record that the table works out: a client never sends them.
COMPUTED_FIELDS = ("index", "round_wind", "hand_number", "dealer", "honba", "riichi_sticks_before", "payments",
                   "deltas", "scores_after", "riichi_sticks_after", "dealer_repeats", "game_over", "penalty",
                   "chombo")
WINNER_FIELDS = tuple(contract.winner()["properties"])
VALUE_FORMS = tuple(tuple(form["properties"]) for form in _VALUE["oneOf"])
VALUE_SHAPES = '{"han": 3, "fu": 40}, {"limit": "mangan"}, {"yakuman": 1} or {"hand": <score request>}'
#: What a winner's ``{"hand": ...}`` may hold: a score request without comparisons; its ``ruleset`` and
#: ``rules``, when given, must be the table's own.
HAND_FIELDS = contract.SCORED_HAND_FIELDS
PENALTY_FIELDS = tuple(contract.PENALTY["properties"])

_check_seat = validator(contract.SEAT, LedgerError)
_check_seats = validator(contract.SEATS, LedgerError)
_check_penalties = validator(contract.PENALTIES, LedgerError)
_check_han_fu = validator(contract.HAN_FU, LedgerError)
_check_limit = validator(contract.LIMIT, LedgerError)


def clean_hand(body: Any, strict: bool = True) -> Any:
    """The hand with only its declared input fields (game/contract.py), nested ones included.

    ``strict`` refuses any other field (LedgerError 422 naming it): that is how a new hand is checked.
    With ``strict=False`` other fields are dropped instead: that is how a hand stored before these
    checks is read back, so an old record can never block the table.
    """
    if not isinstance(body, Mapping):
        return body  # apply_hand says what is wrong
    kind = body.get("result")
    if not isinstance(kind, str) or kind not in RESULT_FIELDS:
        return dict(body)  # apply_hand refuses the result
    if strict:
        for key in body:
            if key in COMPUTED_FIELDS:
                raise LedgerError(str(key), "impossible", "computed_field", key=str(key))
    return only_declared(body, _HAND, LedgerError if strict else None)


def _flag(body: Mapping[str, Any], name: str) -> bool:
    value = body.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise LedgerError(name, "malformed", "not_true_false")
    return value


class _Book:
    """Payments made in one hand, itemised, and the table-point changes they add up to."""

    def __init__(self, state: TableState, stick: int):
        self.deltas = [0, 0, 0, 0]
        self.sticks = state.riichi_sticks
        self.stick = stick  # points of one riichi stick: sticks on the table are counted in these
        self.items: list[dict[str, Any]] = []

    def pay(self, frm: int | str, to: int | str, amount: int, what: str) -> None:
        """``amount`` from seat ``frm`` to seat ``to``; either may be TABLE (the only str), the pot of sticks."""
        if amount <= 0 or frm == to:
            return
        if isinstance(frm, str):
            self.sticks -= amount // self.stick
        else:
            self.deltas[frm] -= amount
        if isinstance(to, str):
            self.sticks += amount // self.stick
        else:
            self.deltas[to] += amount
        self.items.append({"from": frm, "to": to, "amount": amount, "for": what})


def _declare_riichi(rules: Ruleset, state: TableState, book: _Book, seats: list[int]) -> None:
    for seat in seats:
        if rules.riichi_needs_points and state.scores[seat] < rules.riichi_stick:
            raise LedgerError("riichi", "impossible", "riichi_points", seat=seat, points=state.scores[seat], needed=rules.riichi_stick)
        book.pay(seat, TABLE, rules.riichi_stick, "riichi")


# --- the value of a win ------------------------------------------------------------------------

def _value(rules: Ruleset, state: TableState, seat: int, raw: Any, tsumo: bool, riichi: list[int],
           field: str, sticks: int) -> dict[str, Any]:
    """What a winner's hand is worth: base points, and the facts shown in the hand record."""
    if not isinstance(raw, Mapping):
        raise LedgerError(field, "malformed", "hand_value")
    dealer = seat == state.dealer
    if "hand" in raw:
        return _value_of_hand(rules, state, seat, raw["hand"], tsumo, riichi, field, sticks)
    if "limit" in raw:
        _check_limit(raw, field)
        name = raw["limit"]
        return {"yakuman": 0, "limit": name, "base": LIMIT_BASES[name], "dealer": dealer,
                "pao_units": 0}
    if "yakuman" in raw:
        n = raw["yakuman"]
        most = rules.max_yakuman if rules.yakuman_stacking else (2 if rules.double_yakuman else 1)
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
            raise LedgerError(f"{field}.yakuman", "impossible", "yakuman_count", max=most)
        units = raw.get("pao_yakuman", 1 if n == 1 else None)  # None: not said (asked for when it matters)
        if units is not None and (isinstance(units, bool) or not isinstance(units, int) or not 1 <= units <= n):
            raise LedgerError(f"{field}.pao_yakuman", "impossible", "range", min=1, max=n)
        return {"han": 13 * n, "fu": 0, "yakuman": n, "limit": "yakuman", "base": 8000 * n, "dealer": dealer,
                "pao_units": units}
    _check_han_fu(raw, field)  # whole numbers, han 1 to MAX_HAN, fu 20 to 130
    han, fu = int(raw["han"]), int(raw["fu"])
    if han >= 5 and fu not in (20, 25) and not (30 <= fu <= 130 and fu % 10 == 0):
        raise LedgerError(f"{field}.fu", "impossible", "fu_value")
    if han < 5:
        if fu not in (20, 25) and not (30 <= fu <= 130 and fu % 10 == 0):
            raise LedgerError(f"{field}.fu", "impossible", "fu_value")
        if fu == 25 and han < 2:
            raise LedgerError(f"{field}.fu", "impossible", "fu_25")
        if fu == 20 and (han < 2 or not tsumo):
            raise LedgerError(f"{field}.fu", "impossible", "fu_20_ron")
    base, limit = base_points(han, fu, kiriage=rules.kiriage, kazoe=rules.kazoe_yakuman)
    return {"han": han, "fu": fu, "yakuman": 0, "limit": limit, "base": base, "dealer": dealer, "pao_units": 0}


FILLED_BY_TABLE = ("seat_wind", "round_wind", "honba", "riichi_sticks")
PAO_IDS = {"daisangen": "daisangen", "daisuushii": "daisuushii", "suukantsu": "suukantsu"}


def _value_of_hand(rules: Ruleset, state: TableState, seat: int, hand: Any, tsumo: bool, riichi: list[int], field: str,
                   sticks: int) -> dict[str, Any]:
    if not isinstance(hand, Mapping):
        raise LedgerError(f"{field}.hand", "malformed", "score_request_object")
    filled = {"seat_wind": state.seat_wind(seat), "round_wind": state.round_wind, "honba": state.honba,
              "riichi_sticks": sticks, "win": "tsumo" if tsumo else "ron"}
    for key, value in filled.items():
        if key in hand and hand[key] != value:
            raise LedgerError(f"{field}.hand.{key}", "impossible", "filled_by_table")
    if hand.get("ruleset", rules.id) != rules.id:
        raise LedgerError(f"{field}.hand.ruleset", "impossible", "table_ruleset", name=rules.id)
    if hand.get("rules"):
        try:
            same = get_ruleset(rules.id, hand["rules"]) == rules
        except ScoringError as err:
            raise err.moved(LedgerError, f"{field}.hand.{err.field}") from None
        if not same:
            raise LedgerError(f"{field}.hand.rules", "impossible", "table_rules")
    in_riichi = bool(hand.get("riichi") or hand.get("double_riichi"))
    if in_riichi != (seat in riichi):
        raise LedgerError(f"{field}.hand.riichi", "impossible", "riichi_mismatch", seat=seat)
    try:
        result = evaluate(parse_request({**hand, **filled}, rules))
    except ScoringError as err:
        raise err.moved(LedgerError, f"{field}.hand.{err.field}" if err.field else f"{field}.hand") from None
    if result["yakuman"]:
        base = 8000 * result["yakuman"]
    elif result["limit"] == "yakuman":
        base = 8000  # counted yakuman
    else:
        base, _ = base_points(result["han"], result["fu"], kiriage=rules.kiriage, kazoe=rules.kazoe_yakuman)
        if result["limit"] == "mangan" and base < 2000:  # renhou as mangan
            base = 2000
    pao_units = sum(y.get("yakuman", 0) for y in result["yaku"] if PAO_IDS.get(y["id"]) in rules.pao_yaku)
    return {"han": result["han"], "fu": result["fu"], "yakuman": result["yakuman"], "limit": result["limit"],
            "base": base, "dealer": seat == state.dealer, "pao_units": pao_units,
            "yaku": [{"id": y["id"], "han": y["han"]} for y in result["yaku"]], "hand": result["hand"],
            "melds": result["melds"], "win_tile": result["win_tile"], "notes": result["notes"]}


def _pao(rules: Ruleset, value: dict[str, Any], winner: Mapping[str, Any], seat: int, field: str) -> int | None:
    pao = winner.get("pao_seat")
    if pao is None:
        return None
    pao = _seat(pao, f"{field}.pao_seat")
    if pao == seat:
        raise LedgerError(f"{field}.pao_seat", "impossible", "pao_winner")
    if not rules.pao_yaku:
        raise LedgerError(f"{field}.pao_seat", "impossible", "pao_none")
    if not value["yakuman"] or value["pao_units"] == 0:
        raise LedgerError(f"{field}.pao_seat", "impossible", "pao_yaku", yaku=', '.join(rules.pao_yaku))
    if rules.pao_scope == "hand":
        value["pao_base"] = value["base"]  # the liable player answers for the whole hand (WRR 6.2, EMA 3.3.6)
        return pao
    units = value["pao_units"]
    if units is None:
        raise LedgerError(f"{field}.value.pao_yakuman", "impossible", "pao_yakuman_needed", yakuman=value["yakuman"])
    if isinstance(units, bool) or not isinstance(units, int) or not 1 <= units <= value["yakuman"]:
        raise LedgerError(f"{field}.value.pao_yakuman", "impossible", "range", min=1, max=value['yakuman'])
    value["pao_base"] = 8000 * units
    return pao


# --- each kind of result -----------------------------------------------------------------------

def _ron(rules: Ruleset, state: TableState, body: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    frm = _seat(body.get("from_seat"), "from_seat")
    winners = body.get("winners")
    if not isinstance(winners, list) or not winners:
        raise LedgerError("winners", "malformed", "winners_list")
    if len(winners) > rules.max_ron_winners:
        if rules.max_ron_winners == 1:
            raise LedgerError("winners", "impossible", "head_bump")
        if "triple_ron" in rules.abortive_draws:
            raise LedgerError("winners", "impossible", "three_ron_abort")
        raise LedgerError("winners", "impossible", "ron_winners", max=rules.max_ron_winners)
    riichi = _seats(body, "riichi")
    _declare_riichi(rules, state, book, riichi)
    seats = []
    for i, w in enumerate(winners):
        if not isinstance(w, Mapping):
            raise LedgerError(f"winners[{i}]", "malformed", "winner_object")
        seat = _seat(w.get("seat"), f"winners[{i}].seat")
        if seat == frm:
            raise LedgerError(f"winners[{i}].seat", "impossible", "winner_discarder")
        if seat in seats:
            raise LedgerError(f"winners[{i}].seat", "impossible", "seat_listed_twice", seat=seat)
        seats.append(seat)
    # turn order from the discarder: the closest winner takes the sticks (and honba where so ruled)
    order = sorted(range(len(winners)), key=lambda i: (seats[i] - frm) % 4)
    closest = seats[order[0]]
    sticks = book.sticks
    shown = []
    for i in order:
        w, seat = winners[i], seats[i]
        field = f"winners[{i}]"
        value = _value(rules, state, seat, w.get("value"), False, riichi, f"{field}.value",
                       sticks if seat == closest else 0)
        pao = _pao(rules, value, w, seat, field)
        honba = state.honba if (rules.multi_ron_honba == "each" or seat == closest) else 0
        _pay_ron(rules, book, frm, seat, value, pao, honba)
        shown.append(_winner_record(seat, value, pao, w.get("value"), False))
    if len(winners) > 1 and rules.multi_ron_sticks == "closest_own_back":
        # in turn order from the discarder, like the winners: the record does not depend on the order they were listed in
        for seat in sorted(seats, key=lambda s: (s - frm) % 4):
            if seat in riichi and seat != closest:
                book.pay(TABLE, seat, rules.riichi_stick, "own riichi stick back")
    book.pay(TABLE, closest, book.sticks * rules.riichi_stick, "riichi sticks")
    return {"winners": shown, "dealer_repeats": state.dealer in seats, "honba_next": state.honba + 1 if state.dealer in seats else 0}


def _pay_ron(rules: Ruleset, book: _Book, frm: int, seat: int, value: Mapping[str, Any], pao: int | None, honba: int) -> None:
    dealer = value["dealer"]
    if pao is None or pao == frm:
        book.pay(frm, seat, hand_payments(value["base"], dealer=dealer, tsumo=False)["ron"], "hand")
        book.pay(frm, seat, rules.honba_ron * honba, "honba")
        return
    pao_base = value["pao_base"]
    pao_part = hand_payments(pao_base, dealer=dealer, tsumo=False)["ron"]
    liable_share = round_up_100(pao_part // 2)
    rest = value["base"] - pao_base
    rest_part = hand_payments(rest, dealer=dealer, tsumo=False)["ron"] if rest > 0 else 0
    book.pay(pao, seat, liable_share, "hand (liability)")
    book.pay(frm, seat, pao_part - liable_share + rest_part, "hand")
    honba_points = rules.honba_ron * honba
    if rules.pao_ron_honba == "liable":
        book.pay(pao, seat, honba_points, "honba (liability)")
    elif rules.pao_ron_honba == "split":
        book.pay(pao, seat, honba_points // 2, "honba (liability)")
        book.pay(frm, seat, honba_points - honba_points // 2, "honba")
    else:
        book.pay(frm, seat, honba_points, "honba")


def _tsumo(rules: Ruleset, state: TableState, body: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    w = body.get("winner")
    if not isinstance(w, Mapping):
        raise LedgerError("winner", "malformed", "winner_object")
    seat = _seat(w.get("seat"), "winner.seat")
    riichi = _seats(body, "riichi")
    _declare_riichi(rules, state, book, riichi)
    value = _value(rules, state, seat, w.get("value"), True, riichi, "winner.value", book.sticks)
    pao = _pao(rules, value, w, seat, "winner")
    dealer = value["dealer"]
    payers = [s for s in range(4) if s != seat]

    def shares(base: int) -> dict[int, int]:
        pays = hand_payments(base, dealer=dealer, tsumo=True)
        return {s: pays["dealer"] if (not dealer and s == state.dealer) else pays["non_dealer"] for s in payers}

    if pao is None:
        for s, amount in shares(value["base"]).items():
            book.pay(s, seat, amount, "hand")
            book.pay(s, seat, rules.honba_tsumo * state.honba, "honba")
    else:
        pao_base = value["pao_base"]
        rest = value["base"] - pao_base
        book.pay(pao, seat, sum(shares(pao_base).values()), "hand (liability)")
        if rest > 0:
            for s, amount in shares(rest).items():
                book.pay(s, seat, amount, "hand")
                book.pay(s, seat, rules.honba_tsumo * state.honba, "honba")
        else:
            book.pay(pao, seat, rules.honba_tsumo * state.honba * 3, "honba (liability)")
    book.pay(TABLE, seat, book.sticks * rules.riichi_stick, "riichi sticks")
    repeats = seat == state.dealer
    return {"winners": [_winner_record(seat, value, pao, w.get("value"), True)], "dealer_repeats": repeats,
            "honba_next": state.honba + 1 if repeats else 0}


def _draw(rules: Ruleset, state: TableState, body: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    tenpai = _seats(body, "tenpai")
    riichi = _seats(body, "riichi")
    nagashi = _seats(body, "nagashi")
    noten_riichi = [s for s in riichi if s not in tenpai]
    if noten_riichi:
        raise LedgerError("tenpai", "impossible", "noten_riichi", seat=noten_riichi[0])
    if nagashi and not rules.nagashi_mangan:
        raise LedgerError("nagashi", "impossible", "nagashi_none")
    _declare_riichi(rules, state, book, riichi)
    if nagashi:
        for seat in nagashi:
            dealer = seat == state.dealer
            pays = hand_payments(2000, dealer=dealer, tsumo=True)
            for s in range(4):
                if s == seat:
                    continue
                book.pay(s, seat, pays["dealer"] if (not dealer and s == state.dealer) else pays["non_dealer"], "nagashi mangan")
                if rules.nagashi_collects:
                    book.pay(s, seat, rules.honba_tsumo * state.honba, "honba")
        if rules.nagashi_collects:
            first = min(nagashi, key=lambda s: (s - state.dealer) % 4)
            book.pay(TABLE, first, book.sticks * rules.riichi_stick, "riichi sticks")
    elif 0 < len(tenpai) < 4:
        noten = [s for s in range(4) if s not in tenpai]
        each = rules.noten_total // (len(tenpai) * len(noten))
        for s in noten:
            for t in tenpai:
                book.pay(s, t, each, "noten payment")
    repeats = state.dealer in tenpai
    return {"winners": [], "dealer_repeats": repeats, "honba_next": state.honba + 1}


def _abort(rules: Ruleset, state: TableState, body: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    kind = body.get("kind")
    if kind not in rules.abortive_draws:
        allowed = ", ".join(rules.abortive_draws) or "none"
        raise LedgerError("kind", "impossible", "abort_kind", allowed=allowed)
    riichi = _seats(body, "riichi")
    if kind == "four_riichi" and riichi != [0, 1, 2, 3]:
        raise LedgerError("riichi", "impossible", "four_riichi")
    _declare_riichi(rules, state, book, riichi)
    return {"winners": [], "dealer_repeats": rules.dealer_repeat_on_abort, "honba_next": state.honba + 1}


def _chombo(rules: Ruleset, state: TableState, body: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    seat = _seat(body.get("seat"), "seat")
    _seats(body, "riichi")  # declarations of a re-dealt hand are returned: nothing moves
    penalty = 0
    if rules.chombo == "mangan":
        dealer = seat == state.dealer
        for s in range(4):
            if s != seat:
                book.pay(seat, s, 4000 if (dealer or s == state.dealer) else 2000, "chombo")
    else:
        penalty = rules.chombo_penalty
    return {"winners": [], "redeal": True, "penalty": (seat, penalty)}


def _end(rules: Ruleset, state: TableState, body: Mapping[str, Any], book: _Book) -> dict[str, Any]:
    """The session ends before its last hand (a tournament's time limit, WRR 8.1, or the players agree)."""
    return {"winners": [], "end": True}


HANDLERS = {"ron": _ron, "tsumo": _tsumo, "draw": _draw, "abort": _abort, "chombo": _chombo, "end": _end}


def _winner_record(seat: int, value: dict[str, Any], pao: int | None, request: Any, tsumo: bool) -> dict[str, Any]:
    out = {"seat": seat, **{k: v for k, v in value.items() if k not in ("base", "dealer", "pao_units", "pao_base")}}
    out["value"] = request  # as recorded, so a correction can start from it
    out["points"] = payment_total(hand_payments(value["base"], dealer=value["dealer"], tsumo=tsumo), value["dealer"])
    if pao is not None:
        out["pao_seat"] = pao
    return out


# --- applying a hand and ending the game -------------------------------------------------------

def apply_hand(rules: Ruleset, state: TableState, body: Any) -> tuple[TableState, dict[str, Any]]:
    """Record one hand: the new state and the hand's record (payments, deltas, values)."""
    if not isinstance(body, Mapping):
        raise LedgerError(None, "malformed", "hand_object")
    if state.finished:
        raise LedgerError("result", "impossible", "game_over")
    kind = body.get("result")
    if not isinstance(kind, str) or kind not in HANDLERS:
        raise LedgerError("result", "malformed", "choice", choices=', '.join(RESULTS))
    body = clean_hand(body)  # only the documented fields: the rest is refused, naming the field
    book = _Book(state, rules.riichi_stick)
    outcome = HANDLERS[kind](rules, state, body, book)
    continue_game = _flag(body, "continue_game")

    scores = tuple(s + d for s, d in zip(state.scores, book.deltas))
    penalties = list(state.penalties)
    for seat, points in _extra_penalties(body):
        penalties[seat] += points
    record = {
        **body,
        "index": state.hands_played, "round_wind": state.round_wind, "hand_number": state.hand_number,
        "dealer": state.dealer, "honba": state.honba, "riichi_sticks_before": state.riichi_sticks,
        "winners": outcome["winners"], "payments": book.items,
        "deltas": book.deltas, "scores_after": list(scores), "riichi_sticks_after": book.sticks,
    }
    for name in ("riichi", "tenpai", "nagashi"):  # as the seat lists they were read as
        if name in body and name in RESULT_FIELDS[kind]:
            record[name] = _seats(body, name)
    if kind == "end":
        record["game_over"] = True
        return dataclasses.replace(state, penalties=tuple(penalties), finished=True,
                                   hands_played=state.hands_played + 1), record
    if kind == "chombo":
        seat, penalty = outcome["penalty"]
        penalties[seat] += penalty
        # what the chombo costs, as the rule set has it: a payment now (in the payments) or a penalty at the end
        record["chombo"] = {"seat": seat, "kind": "payment" if rules.chombo == "mangan" else "penalty"}
        if penalty:
            record["penalty"] = {"seat": seat, "points": penalty}
        new = dataclasses.replace(state, scores=scores, penalties=tuple(penalties), riichi_sticks=book.sticks,
                                  hands_played=state.hands_played + 1)
        return _check_bust(rules, new), record

    new = dataclasses.replace(state, scores=scores, riichi_sticks=book.sticks, honba=outcome["honba_next"],
                              penalties=tuple(penalties), hands_played=state.hands_played + 1)
    new = _advance(rules, state, new, outcome["dealer_repeats"], continue_game, kind)
    record["dealer_repeats"] = outcome["dealer_repeats"]
    record["game_over"] = new.finished
    return new, record


def _extra_penalties(body: Mapping[str, Any]) -> list[tuple[int, int]]:
    """Point penalties a referee gives with any hand (WRR 7.2, Saikouisen art. 54): kept off the table."""
    raw = body.get("penalties") or []
    _check_penalties(raw, "penalties")  # the declared shape: seats, points in hundreds, a short reason
    out = []
    for i, p in enumerate(raw):
        reason = p.get("reason")
        if reason is not None and not printable(reason):
            raise LedgerError(f"penalties[{i}].reason", "impossible", "text_length", max=MAX_REASON)
        out.append((p["seat"], p["points"]))
    return out


def _first_seat(rules: Ruleset, scores: Sequence[int]) -> int:
    return min(range(4), key=lambda s: (-scores[s], s))


def _advance(rules: Ruleset, before: TableState, new: TableState, repeats: bool, continue_game: bool, kind: str) -> TableState:
    if rules.bust_ends_game and min(new.scores) < 0:
        return dataclasses.replace(new, finished=True)
    rounds = rules.rounds
    in_extension = before.round_index >= rounds
    last_regular = before.round_index == rounds - 1 and before.hand_number == 4
    target = rules.extension_target
    if in_extension and target and max(new.scores) >= target:
        return dataclasses.replace(new, finished=True)
    if repeats:
        if (last_regular or in_extension) and _may_stop(rules, new, kind) and not continue_game:
            return dataclasses.replace(new, finished=True)
        return new
    dealer = (before.dealer + 1) % 4
    round_index, hand_number = before.round_index, before.hand_number + 1
    if dealer == 0:
        round_index, hand_number = round_index + 1, 1
    if round_index >= rounds:
        extend = target and max(new.scores) < target and round_index == rounds
        if not extend:
            return dataclasses.replace(new, finished=True)
    return dataclasses.replace(new, dealer=dealer, round_index=round_index, hand_number=hand_number)


def _may_stop(rules: Ruleset, state: TableState, kind: str) -> bool:
    """Agari-yame / tenpai-yame: the dealer of the last hand is first and may end the game."""
    allowed = rules.agari_yame if kind in ("ron", "tsumo") else (rules.tenpai_yame if kind == "draw" else False)
    if not allowed or _first_seat(rules, state.scores) != state.dealer:
        return False
    if rules.tie_break == "split" and sorted(state.scores)[-2] == state.scores[state.dealer]:
        return False  # tied for first is not "the high scorer"
    return not rules.extension_target or state.scores[state.dealer] >= rules.extension_target


def _check_bust(rules: Ruleset, state: TableState) -> TableState:
    if rules.bust_ends_game and min(state.scores) < 0:
        return dataclasses.replace(state, finished=True)
    return state


def replay(rules: Ruleset, hands: Sequence[Any], state: TableState | None = None,
           start: int = 0) -> tuple[TableState, list[dict[str, Any]]]:
    """The state after every hand of the log, and each hand's record. Raises on the first bad hand.

    With ``state`` (the state after the first ``start`` hands), ``hands`` are the hands from number
    ``start`` on: a table replays only from the hand that changed (errors name the hand's number)."""
    if state is None:
        state = new_state(rules)
    records = []
    for n, body in enumerate(hands, start):
        try:
            state, record = apply_hand(rules, state, body)
        except LedgerError as err:
            moved = err.moved(LedgerError, err.field)
            moved.hand = n  # which hand of the log: a field of the refusal, never words in its sentence
            raise moved from None
        records.append(record)
    return state, records


# --- final standings ---------------------------------------------------------------------------

def standings(rules: Ruleset, state: TableState) -> dict[str, Any]:
    """Places, uma, oka, penalties and final scores (in thousands), and where leftover sticks went."""
    points = list(state.scores)
    leftover = state.riichi_sticks * rules.riichi_stick
    sticks_to = []
    order = _placing(rules, points)
    if leftover and rules.leftover_sticks == "first":
        firsts = [s for s in range(4) if order[s] == 1]
        share = leftover // len(firsts)
        for n, s in enumerate(sorted(firsts)):
            points[s] += share + (leftover - share * len(firsts) if n == 0 else 0)
        sticks_to = sorted(firsts)
        order = _placing(rules, points)
    positive = sum(1 for p in points if p >= rules.return_points)
    uma_table = rules.uma_for(positive)
    oka_total = (rules.return_points - rules.start_points) * 4
    rows = []
    for s in range(4):
        place = order[s]
        tied = [t for t in range(4) if order[t] == place]
        places = range(place - 1, place - 1 + len(tied))
        uma = sum(uma_table[p] for p in places) / len(tied)
        oka = oka_total / len(tied) if place == 1 else 0
        rows.append({"seat": s, "place": place, "points": points[s], "uma": _num(uma), "oka": _num(oka),
                     "penalty": state.penalties[s]})
    _finals(rules, rows)
    return {"standings": sorted(rows, key=lambda r: (r["place"], r["seat"])), "leftover_sticks": {
        "points": leftover, "to": sticks_to, "rule": rules.leftover_sticks}}


def _placing(rules: Ruleset, points: list[int]) -> list[int]:
    """Place of each seat (1..4); tied seats share the best place unless ties go by seat order."""
    if rules.tie_break == "seat_order":
        ranked = sorted(range(4), key=lambda s: (-points[s], s))
        return [ranked.index(s) + 1 for s in range(4)]
    return [1 + sum(1 for t in range(4) if points[t] > points[s]) for s in range(4)]


def _finals(rules: Ruleset, rows: list[dict[str, Any]]) -> None:
    if rules.final_rounding == "nearest_1000":
        ranked = sorted(rows, key=lambda r: (r["place"], r["seat"]))
        for r in ranked[1:]:
            diff = r["points"] - rules.return_points
            rounded = (abs(diff) + 500) // 1000 * (1 if diff >= 0 else -1)
            r["final"] = _num(rounded + (r["uma"] + r["oka"]) / 1000 - r["penalty"] / 1000)
        first = ranked[0]
        first["final"] = _num(-sum(r["final"] + r["penalty"] / 1000 for r in ranked[1:]) - first["penalty"] / 1000)
        return
    for r in rows:
        r["final"] = _num((r["points"] - rules.return_points + r["uma"] + r["oka"] - r["penalty"]) / 1000)


def _num(x: float) -> float:
    """Whole numbers as int, others rounded to 0.1 (thousands of points)."""
    x = round(x, 1)
    return int(x) if x == int(x) else x


def state_to_json(state: TableState) -> dict[str, Any]:
    """The whole state as plain JSON (the server keeps it with each hand of a table's board)."""
    return dataclasses.asdict(state)


def state_from_json(data: Mapping[str, Any]) -> TableState:
    """The state :func:`state_to_json` wrote."""
    return TableState(**{**data, "scores": tuple(data["scores"]), "penalties": tuple(data["penalties"])})


def state_dict(rules: Ruleset, state: TableState) -> dict[str, Any]:
    """The ``state`` object of the table JSON."""
    out = {
        "scores": list(state.scores), "round_wind": state.round_wind, "hand_number": state.hand_number,
        "dealer": state.dealer, "honba": state.honba, "riichi_sticks": state.riichi_sticks,
        "seat_winds": [state.seat_wind(s) for s in range(4)], "penalties": list(state.penalties),
        "hands_played": state.hands_played, "finished": state.finished,
    }
    if state.finished:
        out.update(standings(rules, state))
    return out
