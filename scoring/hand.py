"""Hand decomposition: every way concealed tiles split into groups and a pair.

Tiles are counts over the 34 kinds (see :mod:`scoring.tiles`). A group is a tuple
``(kind, index)`` with ``kind`` SHUNTSU (a run starting at ``index``) or KOUTSU (three of
``index``). Each suit is split on its own (cached on its nine counts, so common patterns are
computed once), then the suits are combined with exactly one pair among them.

>>> from scoring.tiles import parse_tiles, counts_of
>>> decompositions(tuple(counts_of(parse_tiles("111222333m11p"))), 3)[0][0]
9
>>> len(decompositions(tuple(counts_of(parse_tiles("111222333m11p"))), 3))
2
"""
from __future__ import annotations

from .tiles import YAOCHUU

SHUNTSU, KOUTSU = 0, 1
KOKUSHI_KINDS = tuple(sorted(YAOCHUU))

#: Tiles by kind: the 34 counts of a hand, or the nine (seven) of one suit.
Counts = tuple[int, ...]
#: A group of a split: (SHUNTSU or KOUTSU, index of its first tile).
Group = tuple[int, int]
#: One way to split tiles: (index of the pair or -1, the groups).
Split = tuple[int, tuple[Group, ...]]
#: A group as the yaku and fu code read it: (kind, index, concealed, kan, called).
HandGroup = tuple[int, int, bool, bool, bool]


#: Splits of one suit's counts, by (counts, base). One suit of a hand has at most 14 tiles, so
#: the patterns are few (a few thousand) and the cache stays small; it is filled as hands come.
_SPLITS: dict[tuple[Counts, int], tuple[Split, ...]] = {}


def _suit_splits(counts: Counts, base: int) -> tuple[Split, ...]:
    found_before = _SPLITS.get((counts, base))
    if found_before is not None:
        return found_before
    splits = _split_suit(counts, base)
    if len(_SPLITS) < 200_000:
        _SPLITS[(counts, base)] = splits
    return splits


def _split_suit(counts: Counts, base: int) -> tuple[Split, ...]:
    """Every split of one suit's counts into groups and at most one pair.

    ``base`` is the suit's first tile index (27 for honours, which make no runs). Returns
    ``((pair index or -1, ((kind, index), ...)), ...)`` with absolute indices, in a canonical order.
    """
    runs = base < 27
    found: set[Split] = set()

    def walk(c: list[int], i: int, pair: int, groups: tuple[Group, ...]) -> None:
        while i < len(c) and c[i] == 0:
            i += 1
        if i == len(c):
            found.add((pair, groups))
            return
        if c[i] >= 3:
            c[i] -= 3
            walk(c, i, pair, groups + ((KOUTSU, base + i),))
            c[i] += 3
        if runs and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            walk(c, i, pair, groups + ((SHUNTSU, base + i),))
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            walk(c, i, base + i, groups)
            c[i] += 2

    if sum(counts) % 3 != 1:  # 3n tiles without a pair or 3n+2 with one
        walk(list(counts), 0, -1, ())
    return tuple(sorted(found))


SUIT_SLICES = ((0, 9), (9, 18), (18, 27), (27, 34))


def decompositions(counts: Counts, groups_needed: int) -> tuple[Split, ...]:
    """All (pair_index, groups) splits of 34-kind ``counts`` into ``groups_needed`` groups and a pair.

    Group indices are absolute tile indices. Returns an empty tuple when the tiles do not form
    a complete hand of that shape.
    """
    if sum(counts) != 3 * groups_needed + 2:
        return ()
    per_suit = []
    for start, stop in SUIT_SLICES:
        part = counts[start:stop]
        if any(part):
            splits = _suit_splits(part, start)
            if not splits:
                return ()
            per_suit.append(splits)
    # combine the suits' splits, keeping only combinations with at most one pair so far
    combos: list[Split] = [(-1, ())]
    for splits in per_suit:
        combos = [(pair if pair >= 0 else p, groups + g) for pair, groups in combos for p, g in splits
                  if pair < 0 or p < 0]
    return tuple(c for c in combos if c[0] >= 0)


def meld_shape(kinds: list[int]) -> str | None:
    """What tiles of these kinds can be as a meld: "chi" (three in a row of one suit), "pon" (three
    alike) or "kan" (four alike), else None.

    >>> meld_shape([13, 12, 14]), meld_shape([27, 27, 27]), meld_shape([25, 26, 27]), meld_shape([5, 5])
    ('chi', 'pon', None, None)
    """
    k = sorted(kinds)
    if len(k) == 3 and k[0] < 27 and k[0] // 9 == k[2] // 9 and k[1] == k[0] + 1 and k[2] == k[0] + 2:
        return "chi"
    if len(k) in (3, 4) and k[0] == k[-1]:
        return "pon" if len(k) == 3 else "kan"
    return None


def is_chiitoitsu(counts: Counts) -> bool:
    """Seven different pairs (four of a kind is not two pairs)."""
    return counts.count(2) == 7 and sum(counts) == 14


def is_kokushi(counts: Counts) -> bool:
    """One of each terminal and honour and one more of them."""
    # thirteen kinds present (21 of 34 absent), all of them terminals and honours, fourteen tiles
    return counts.count(0) == 21 and sum(counts) == 14 and all(counts[i] for i in KOKUSHI_KINDS)


def is_complete(counts: Counts, groups_needed: int) -> bool:
    """Whether concealed ``counts`` complete a hand that already holds ``4 - groups_needed`` melds."""
    if groups_needed == 4 and (is_chiitoitsu(counts) or is_kokushi(counts)):
        return True
    return bool(decompositions(counts, groups_needed))
