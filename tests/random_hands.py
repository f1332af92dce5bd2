"""Random complete winning hands, reproducible from a seed (differential test and benchmark).

A :class:`Deal` is engine-neutral: every tile is a physical copy numbered ``kind * 4 + copy``
(kind 0..33 as in :mod:`scoring.tiles`, copy 0..3), so one deal never holds a copy twice, and
copy 0 of each five is the red five. :meth:`Deal.payload` writes it as a request for
``scoring.score``; the differential test converts the same deal for the ``mahjong`` oracle.

Hands come from "themes" that bias the tile choice (all simples, one suit, outside hands,
triplets, honours, dragons, winds, greens, terminals, sanshoku, ittsu, peikou shapes, nine
gates) and special shapes (seven pairs, thirteen orphans), so rare yaku and yakuman appear often
enough to be exercised. Situational flags are only set where they are legal.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from scoring.tiles import DRAGONS, GREENS, WIND_NAMES, WINDS, YAOCHUU

RED_COPIES = frozenset((4 * 4, 13 * 4, 22 * 4))  # copy 0 of 5m, 5p, 5s
SUIT_LETTERS = "mpsz"

SIMPLES = tuple(i for i in range(27) if i % 9 not in (0, 8))
TERMINALS = tuple(i for i in range(27) if i % 9 in (0, 8))
HONORS = tuple(range(27, 34))
RUN_STARTS = tuple(s * 9 + n for s in range(3) for n in range(7))


def tile_code(copy_id: int) -> str:
    """The mpsz code of one physical tile: ``tile_code(16) == '0m'`` (the red five)."""
    kind = copy_id // 4
    if copy_id in RED_COPIES:
        return "0" + SUIT_LETTERS[kind // 9]
    return f"{kind % 9 + 1}{SUIT_LETTERS[kind // 9]}"


def notation(copy_ids) -> str:
    """Tiles as notation in the given order, one suit letter per tile (the parser accepts it)."""
    return "".join(tile_code(t) for t in copy_ids)


@dataclass(frozen=True)
class Deal:
    """One winning hand and the facts of the win."""

    concealed: tuple[int, ...]                       # incl. the winning tile
    melds: tuple[tuple[str, tuple[int, ...]], ...]   # (chi|pon|daiminkan|kakan|ankan, tiles)
    win_tile: int
    tsumo: bool
    seat: int                                        # 0..3 = east..north
    round: int
    flags: frozenset = field(default_factory=frozenset)
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    honba: int = 0
    sticks: int = 0
    shape: str = ""                                  # the theme that made it (for failure messages)

    def payload(self, ruleset: str) -> dict:
        """The request for ``scoring.score``."""
        out = {
            "ruleset": ruleset, "hand": notation(self.concealed), "win_tile": tile_code(self.win_tile),
            "win": "tsumo" if self.tsumo else "ron",
            "seat_wind": WIND_NAMES[self.seat], "round_wind": WIND_NAMES[self.round],
            "melds": [{"type": kind, "tiles": notation(tiles)} for kind, tiles in self.melds],
            "dora_indicators": notation(self.dora), "ura_indicators": notation(self.ura),
            "honba": self.honba, "riichi_sticks": self.sticks,
        }
        out.update({name: True for name in sorted(self.flags)})
        return out


@dataclass(frozen=True)
class Theme:
    trips: tuple            # kinds a triplet may be
    runs: tuple             # kinds a run may start at
    pairs: tuple            # kinds the pair may be
    run_prob: float
    forced: tuple = ()      # groups placed first: (("run"|"trip", kind), ...)


class _Retry(Exception):
    """The pool ran out of a tile this hand needs: draw the hand again."""


class _Pool:
    """The 136 physical tiles not yet used."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.free = [list(range(k * 4, k * 4 + 4)) for k in range(34)]

    def take(self, kind: int, n: int = 1) -> list[int]:
        copies = self.free[kind]
        if len(copies) < n:
            raise _Retry
        picked = self.rng.sample(copies, n)
        for c in picked:
            copies.remove(c)
        return picked

    def take_any(self) -> int:
        kinds = [k for k in range(34) if self.free[k]]
        return self.take(self.rng.choice(kinds))[0]

    def left(self, kind: int) -> int:
        return len(self.free[kind])


def _suit_kinds(suit: int) -> tuple:
    return tuple(range(suit * 9, suit * 9 + 9))


def _theme(rng: random.Random, name: str) -> Theme:
    if name == "any":
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)), 0.7)
    if name == "simples":
        return Theme(SIMPLES, tuple(s for s in RUN_STARTS if s % 9 in range(1, 6)), SIMPLES, 0.65)
    if name in ("flush", "half_flush"):
        kinds = _suit_kinds(rng.randrange(3))
        extra = HONORS if name == "half_flush" else ()
        return Theme(kinds + extra, tuple(k for k in kinds if k % 9 <= 6), kinds + extra, 0.6)
    if name == "outside":
        yaochuu = tuple(sorted(YAOCHUU))
        return Theme(yaochuu, tuple(s for s in RUN_STARTS if s % 9 in (0, 6)), yaochuu, 0.6)
    if name == "triplets":
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)), 0.0)
    if name == "honors":
        return Theme(HONORS, RUN_STARTS, HONORS, 0.1)
    if name == "dragons":
        forced = tuple(("trip", d) for d in rng.sample(DRAGONS, rng.choice((2, 3))))
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)) + DRAGONS * 3, 0.5, forced)
    if name == "winds":
        forced = tuple(("trip", w) for w in rng.sample(WINDS, rng.choice((3, 3, 4))))
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)) + WINDS * 4, 0.4, forced)
    if name == "green":
        greens = tuple(sorted(GREENS))
        return Theme(greens, (19,), greens, 0.3)
    if name == "terminals":
        honors = HONORS if rng.random() < 0.5 else ()
        return Theme(TERMINALS + honors, RUN_STARTS, TERMINALS + honors, 0.0)
    if name == "sanshoku":
        n = rng.randrange(7)
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)), 0.6, (("run", n), ("run", n + 9), ("run", n + 18)))
    if name == "doukou":
        n = rng.randrange(9)
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)), 0.5, (("trip", n), ("trip", n + 9), ("trip", n + 18)))
    if name == "ittsu":
        b = 9 * rng.randrange(3)
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)), 0.6, (("run", b), ("run", b + 3), ("run", b + 6)))
    if name == "peikou":
        a = rng.choice(RUN_STARTS)
        forced = (("run", a), ("run", a))
        if rng.random() < 0.3:
            b = rng.choice(RUN_STARTS)
            forced += (("run", b), ("run", b))
        return Theme(tuple(range(34)), RUN_STARTS, tuple(range(34)), 0.7, forced)
    raise ValueError(name)  # pragma: no cover


THEMES = (  # (name, weight)
    ("any", 30), ("simples", 12), ("flush", 5), ("half_flush", 6), ("outside", 8), ("triplets", 8),
    ("honors", 3), ("dragons", 4), ("winds", 3), ("green", 2), ("terminals", 3), ("sanshoku", 4),
    ("doukou", 2), ("ittsu", 4), ("peikou", 6),
    ("chiitoitsu", 9), ("kokushi", 3), ("chuuren", 2),
)
MELD_COUNT_WEIGHTS = (45, 20, 15, 12, 8)  # 0..4 melds
TRIPLET_MELDS = (("pon", 50), ("daiminkan", 14), ("kakan", 14), ("ankan", 22))


def _weighted(rng: random.Random, pairs) -> str:
    names, weights = zip(*pairs)
    return rng.choices(names, weights)[0]


def _standard(rng: random.Random, pool: _Pool, theme: Theme) -> tuple[list[int], list]:
    groups = list(theme.forced)
    while len(groups) < 4:
        if theme.runs and rng.random() < theme.run_prob:
            groups.append(("run", rng.choice(theme.runs)))
        else:
            groups.append(("trip", rng.choice(theme.trips)))
    rng.shuffle(groups)
    n_melds = rng.choices(range(5), MELD_COUNT_WEIGHTS)[0]
    concealed: list[int] = []
    melds: list = []
    for n, (kind, index) in enumerate(groups):
        as_meld = n < n_melds
        if kind == "run":
            tiles = [pool.take(index + k)[0] for k in range(3)]
            (melds.append(("chi", tuple(tiles))) if as_meld else concealed.extend(tiles))
            continue
        if not as_meld:
            concealed.extend(pool.take(index, 3))
            continue
        meld_type = _weighted(rng, TRIPLET_MELDS)
        if meld_type != "pon" and pool.left(index) < 4:
            meld_type = "pon"
        melds.append((meld_type, tuple(pool.take(index, 3 if meld_type == "pon" else 4))))
    concealed.extend(pool.take(rng.choice(theme.pairs), 2))
    return concealed, melds


def _chiitoitsu(rng: random.Random, pool: _Pool) -> list[int]:
    flavour = rng.choice(("any", "any", "simples", "flush", "outside", "honors"))
    kinds = {"any": range(34), "simples": SIMPLES, "outside": sorted(YAOCHUU), "honors": HONORS,
             "flush": _suit_kinds(rng.randrange(3)) + HONORS}[flavour]
    kinds = list(kinds)
    if len(kinds) < 7:  # pragma: no cover
        raise _Retry
    out: list[int] = []
    for k in rng.sample(kinds, 7):
        out.extend(pool.take(k, 2))
    return out


def _kokushi(rng: random.Random, pool: _Pool) -> list[int]:
    out = [pool.take(k)[0] for k in sorted(YAOCHUU)]
    out.extend(pool.take(rng.choice(sorted(YAOCHUU))))
    return out


def _chuuren(rng: random.Random, pool: _Pool) -> list[int]:
    base = 9 * rng.randrange(3)
    counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[rng.randrange(9)] += 1
    out: list[int] = []
    for offset, n in enumerate(counts):
        out.extend(pool.take(base + offset, n))
    return out


def random_deal(rng: random.Random) -> Deal:
    """One random complete hand with legal flags, winds, indicators and counters."""
    while True:
        try:
            return _deal(rng)
        except _Retry:
            continue


def _deal(rng: random.Random) -> Deal:
    pool = _Pool(rng)
    shape = _weighted(rng, THEMES)
    melds: list = []
    if shape == "chiitoitsu":
        concealed = _chiitoitsu(rng, pool)
    elif shape == "kokushi":
        concealed = _kokushi(rng, pool)
    elif shape == "chuuren":
        concealed = _chuuren(rng, pool)
    else:
        concealed, melds = _standard(rng, pool, _theme(rng, shape))
    rng.shuffle(concealed)
    win_tile = rng.choice(concealed)
    win_kind = win_tile // 4

    seat, round_ = rng.randrange(4), rng.choice((0, 0, 1, 1, 2, 3))
    closed = all(kind == "ankan" for kind, _ in melds)
    has_kan = any(kind in ("daiminkan", "kakan", "ankan") for kind, _ in melds)
    tsumo = rng.random() < 0.45
    flags: set[str] = set()

    # a win on the first turn (tenhou, chiihou, renhou); more often with the shapes whose
    # double yakuman the rules treat differently on a first-turn win
    first_turn = not melds and rng.random() < (0.15 if shape in ("kokushi", "chuuren") else 0.04)
    if first_turn:
        if tsumo:
            flags.add("tenhou" if seat == 0 else "chiihou")
        elif seat != 0:
            flags.add("renhou")
    if closed and not first_turn and rng.random() < 0.45:
        flags.add("double_riichi" if rng.random() < 0.12 else "riichi")
        if rng.random() < 0.25:
            flags.add("ippatsu")
    if not first_turn:
        if tsumo and has_kan and rng.random() < 0.35:
            flags.add("rinshan")
            flags.discard("ippatsu")  # the kan ended the ippatsu chance
        if tsumo and rng.random() < 0.06:
            flags.add("haitei")
        if not tsumo and rng.random() < 0.06:
            flags.add("houtei")
        robbable = (sum(1 for t in concealed if t // 4 == win_kind) == 1
                    and not any(t // 4 == win_kind for _, tiles in melds for t in tiles))
        if not tsumo and "houtei" not in flags and robbable and rng.random() < 0.12:
            # kokushi may also rob a concealed kan, where the rules allow it
            flags.add("chankan_ankan" if shape == "kokushi" and rng.random() < 0.5 else "chankan")
            pool.take(win_kind, pool.left(win_kind))  # the other copies are in the robbed kan

    kans = sum(1 for kind, _ in melds if kind != "chi" and kind != "pon")
    n_ind = min(1 + kans, 5)
    dora = tuple(pool.take_any() for _ in range(n_ind)) if rng.random() < 0.9 else ()
    ura = ()
    if flags & {"riichi", "double_riichi"} and dora and rng.random() < 0.8:
        ura = tuple(pool.take_any() for _ in range(len(dora)))
    honba = rng.choices(range(8), (50, 15, 10, 8, 6, 5, 3, 3))[0]
    sticks = rng.choices(range(4), (60, 25, 10, 5))[0]
    return Deal(tuple(concealed), tuple(melds), win_tile, tsumo, seat, round_, frozenset(flags),
                dora, ura, honba, sticks, shape)


def random_deals(seed: int, count: int) -> list[Deal]:
    """``count`` deals from one seeded generator: the same list on every run and machine."""
    rng = random.Random(seed)
    return [random_deal(rng) for _ in range(count)]
