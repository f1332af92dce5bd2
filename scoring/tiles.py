"""Tiles and the mpsz notation.

A tile is one of the 34 kinds, numbered 0..33 (``1m``..``9m`` = 0..8, ``1p``..``9p`` = 9..17,
``1s``..``9s`` = 18..26, ``1z``..``7z`` = 27..33: East, South, West, North, haku, hatsu, chun),
plus a flag for a red five (written ``0m``, ``0p``, ``0s``).

>>> Tile.parse("0p")
Tile.parse('0p')
>>> Tile.parse("0p").index == Tile.parse("5p").index
True
>>> [t.code for t in parse_tiles("123m406p55z")]
['1m', '2m', '3m', '4p', '0p', '6p', '5z', '5z']
>>> to_notation(parse_tiles("5z123m0p4p6p5z"))
'123m406p55z'
"""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .errors import NotationError, ScoringError

SUITS = "mpsz"
MAN, PIN, SOU, HONOR = range(4)

EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WIND_NAMES = ("east", "south", "west", "north")
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
TERMINALS = (0, 8, 9, 17, 18, 26)
YAOCHUU = frozenset(TERMINALS + WINDS + DRAGONS)
GREENS = frozenset((19, 20, 21, 23, 25, HATSU))  # 2s 3s 4s 6s 8s hatsu
FIVES = (4, 13, 22)

#: Every tile code the app uses, in label order for the recogniser: 34 kinds, then red fives.
TILE_CODES = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8)
) + ("0m", "0p", "0s")


_CODES = tuple(f"{i % 9 + 1}{SUITS[i // 9]}" for i in range(34))


def index_code(index: int) -> str:
    """The code of a tile kind: ``index_code(27) == '1z'``."""
    return _CODES[index]


def is_honor(index: int) -> bool:
    return index >= 27


def is_yaochuu(index: int) -> bool:
    return index in YAOCHUU


def dora_after(indicator: int) -> int:
    """The dora a tile indicates: the next in its suit, 9 to 1, winds and dragons in a cycle."""
    return _DORA_AFTER[indicator]


def _next_in_cycle(indicator: int) -> int:
    if indicator < 27:
        return indicator - indicator % 9 + (indicator % 9 + 1) % 9
    if indicator < HAKU:
        return EAST + (indicator - EAST + 1) % 4
    return HAKU + (indicator - HAKU + 1) % 3


_DORA_AFTER = tuple(_next_in_cycle(i) for i in range(34))


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: its kind (0..33) and whether it is a red five."""

    index: int
    red: bool = False

    @classmethod
    def parse(cls, code: str) -> Tile:
        tiles = parse_tiles(code)
        if len(tiles) != 1:
            raise NotationError("hand", "malformed", "notation_one_tile")
        return tiles[0]

    @property
    def code(self) -> str:
        if self.red:
            return "0" + SUITS[self.index // 9]
        return index_code(self.index)

    def __repr__(self) -> str:
        return f"Tile.parse({self.code!r})"

    def __str__(self) -> str:
        return self.code


#: One shared instance per tile code, so parsing allocates nothing per tile.
_INTERNED = {SUITS[s]: {str(d): Tile(s * 9 + d - 1) for d in range(1, 10 if s < HONOR else 8)} for s in range(4)}
for _s in range(3):
    _INTERNED[SUITS[_s]]["0"] = Tile(_s * 9 + 4, True)
#: Well-formed notation: groups of digits each closed by a suit letter, spaces or commas between.
_WELL_FORMED = re.compile(r"(?:[0-9]+[mps]|[1-7]+z|[ ,])*")
_GROUP = re.compile(r"([0-9]+)([mpsz])")


#: For each ASCII byte: the first kind of its suit (m p s z), -1 for a separator, -2 otherwise.
SUIT_BASE_BY_BYTE = tuple({ord("m"): 0, ord("p"): 9, ord("s"): 18, ord("z"): 27, ord(" "): -1, ord(","): -1}.get(b, -2)
                          for b in range(128))


class Scan:
    """Tiles read straight into counts: what scoring needs of a hand, without a tile object each."""

    __slots__ = ("counts", "red_kinds", "size", "last", "last_red")

    def __init__(self, counts: list[int], red_kinds: list[int], size: int, last: int, last_red: bool) -> None:
        self.counts = counts          # copies of each kind (34)
        self.red_kinds = red_kinds    # the kinds (4, 13, 22) of the red fives among them
        self.size = size              # how many tiles
        self.last = last              # the kind of the last tile written (-1 if none)
        self.last_red = last_red


def scan_tiles(notation: str) -> Scan | None:
    """Read well-formed notation into counts in one pass; None if it is not well formed.

    The scan runs right to left, so each digit already knows its suit. For anything it does not
    accept, :func:`parse_tiles` gives the precise error.

    >>> scan_tiles("4p06p11z").counts[12:15], scan_tiles("4p06p11z").red_kinds, scan_tiles("4p06p11z").last
    ([1, 1, 1], [13], 27)
    """
    if not notation.isascii():
        return None
    data = notation.encode()
    counts = [0] * 34
    red_kinds: list[int] = []
    base = -1          # the suit of the digits being read; -1 between groups
    digits = 0         # digits read for that suit
    size = 0
    last = -1
    last_red = False
    for i in range(len(data) - 1, -1, -1):
        byte = data[i]
        d = byte - 48
        if 0 <= d <= 9:
            if base < 0:
                return None
            if base == 27:
                if d == 0 or d > 7:
                    return None
                kind = 26 + d
            elif d == 0:
                kind = base + 4
                red_kinds.append(kind)
            else:
                kind = base + d - 1
            counts[kind] += 1
            digits += 1
            size += 1
            if last < 0:
                last, last_red = kind, d == 0
        else:
            if base >= 0 and digits == 0:
                return None  # a suit letter with no digits
            base = SUIT_BASE_BY_BYTE[byte] if byte < 128 else -2
            if base == -2:
                return None
            digits = 0
    if base >= 0 and digits == 0:
        return None
    return Scan(counts, red_kinds, size, last, last_red)


def parse_tiles(notation: object, field: str = "hand") -> list[Tile]:
    """Parse mpsz notation strictly: ``'123m406p55z'`` -> tiles in the written order.

    Spaces are allowed between groups. Anything else that is not a digit followed, eventually,
    by a suit letter is an error that quotes the input and the position.
    """
    if not isinstance(notation, str):
        raise ScoringError(field, "malformed", "notation_type")
    if _WELL_FORMED.fullmatch(notation):
        tiles: list[Tile] = []
        for digits, suit in _GROUP.findall(notation):
            tiles += map(_INTERNED[suit].__getitem__, digits)
        return tiles
    return _parse_or_explain(notation, field)


def _parse_or_explain(notation: str, field: str) -> list[Tile]:
    """Read notation character by character: the slow path, which says where it goes wrong."""
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (digit, position)
    for pos, ch in enumerate(notation):
        if ch.isdigit() and ch.isascii():
            pending.append((int(ch), pos))
        elif ch in SUITS:
            if not pending:
                raise NotationError(field, "malformed", "notation_suit_without_digits", letter=ch, position=pos + 1)
            suit = SUITS.index(ch)
            for digit, dpos in pending:
                if suit == HONOR and not 1 <= digit <= 7:
                    raise NotationError(field, "malformed", "notation_bad_honour", tile=f"{digit}z", position=dpos + 1)
                tiles.append(_INTERNED[ch][str(digit)])
            pending = []
        elif ch in " ,":
            if pending:
                raise NotationError(field, "malformed", "notation_digits_without_suit", position=pos + 1)
        else:
            raise NotationError(field, "malformed", "notation_unknown_character", character=ch, position=pos + 1)
    if pending:
        raise NotationError(field, "malformed", "notation_trailing_digit", digit=pending[-1][0])
    return tiles


_DIGIT = tuple(str(i % 9 + 1) for i in range(34))
_SUIT = tuple(SUITS[i // 9] for i in range(34))


def _notation_order(t: Tile) -> int:
    return 2 * t.index + (not t.red)  # by kind, a red five before the plain ones


def to_notation(tiles: Iterable[Tile], sort: bool = True) -> str:
    """Write tiles as compact mpsz notation, sorted by kind unless ``sort`` is false."""
    seq = sorted(tiles, key=_notation_order) if sort else tiles
    out: list[str] = []
    run_suit = None
    for t in seq:
        suit = _SUIT[t.index]
        if suit != run_suit:
            if run_suit is not None:
                out.append(run_suit)
            run_suit = suit
        out.append("0" if t.red else _DIGIT[t.index])
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def counts_notation(counts: Sequence[int], red_kinds: Collection[int] = ()) -> str:
    """Sorted notation from counts by kind: ``counts_notation(counts_of(parse_tiles("4p06p")), {13})``
    is ``'406p'``; ``red_kinds`` are the kinds (4, 13, 22) of which one copy is the red five."""
    out: list[str] = []
    run_suit = None
    for index in [i for i, n in enumerate(counts) if n]:
        n = counts[index]
        suit = _SUIT[index]
        if suit != run_suit:
            if run_suit is not None:
                out.append(run_suit)
            run_suit = suit
        out.append("0" + _DIGIT[index] * (n - 1) if index in red_kinds else _DIGIT[index] * n)
    if run_suit is not None:
        out.append(run_suit)
    return "".join(out)


def counts_of(tiles: Iterable[Tile]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t.index] += 1
    return counts
