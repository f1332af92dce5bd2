"""Rule sets as data.

A :class:`Ruleset` is a frozen value: every difference between the rule texts is a field, and
the engine reads fields, never preset names. Presets are found with :func:`get_ruleset`;
variants come from :meth:`Ruleset.with_overrides` (a request's ``rules`` mapping).

Each preset carries ``notes``: for every field, the clause of its text that fixes the value, or
the assumption made where the text is silent (marked "assumption").
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .errors import ScoringError

# Names used in tuple-valued fields.
DOUBLE_YAKUMAN_KINDS = ("kokushi_13", "chuuren_9", "suuankou_tanki", "daisuushii")
ABORTIVE_DRAWS = ("nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron")
PAO_YAKU = ("daisangen", "daisuushii", "suukantsu")


#: The groups a rule editor shows the house rules in, in this order; a field names its group and its
#: place in it (``group``). Fields in no group are the rarer rules, shown after them ("More rules").
RULE_GROUPS = ("points", "dora", "yaku", "wins")


def _f(default: Any, label: str, *, choices: tuple[Any, ...] | None = None, scope: str = "scoring",
       items: tuple[str, ...] | None = None, bounds: tuple[int, int, int] | None = None,
       group: tuple[str, int] | None = None) -> Any:
    """A ruleset field with a human label (used to name rule differences) and its allowed values.

    ``bounds`` is ``(lowest, highest, step)`` for a number: an override outside it is refused (422).
    ``group`` is ``(one of RULE_GROUPS, place in the group)``.
    """
    meta: dict[str, Any] = {"label": label, "scope": scope}
    if group is not None:
        meta["group"] = group
    if choices is not None:
        meta["choices"] = choices
    if bounds is not None:
        meta["bounds"] = bounds
    if items is not None:
        meta["items"] = items
    return field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str = "custom"
    title: str = "Custom rules"
    source: str = ""

    # --- hand value -------------------------------------------------------------------------
    red_fives: bool = _f(False, "red fives (aka dora)", group=("dora", 0))
    ippatsu: bool = _f(True, "ippatsu")
    ura_dora: bool = _f(True, "ura dora", group=("dora", 1))
    kan_dora: bool = _f(True, "kan dora", group=("dora", 2))
    kan_ura_dora: bool = _f(True, "kan ura dora", group=("dora", 3))
    open_tanyao: bool = _f(True, "open tanyao (kuitan)", group=("yaku", 0))
    kiriage: bool = _f(False, "kiriage mangan (4 han 30 fu and 3 han 60 fu are mangan)", group=("yaku", 1))
    kazoe_yakuman: bool = _f(False, "kazoe yakuman (13 or more han is yakuman)", group=("yaku", 2))
    yakuman_stacking: bool = _f(False, "several yakuman add up (double, triple yakuman)", group=("yaku", 3))
    max_yakuman: int = _f(6, "most yakuman one hand can be worth", bounds=(1, 8, 1))
    double_yakuman: tuple[str, ...] = _f((), "double yakuman patterns", items=DOUBLE_YAKUMAN_KINDS, group=("yaku", 4))
    renhou: str = _f("none", "renhou (blessing of man)", choices=("none", "han", "mangan", "yakuman"), group=("yaku", 5))
    renhou_han: int = _f(5, "han of renhou when it is a yaku", bounds=(1, 13, 1))
    double_riichi_han: int = _f(2, "han of double riichi (in place of riichi)", bounds=(2, 4, 1))
    double_wind_pair_fu: int = _f(4, "fu of a pair of the double wind (seat = round)", choices=(2, 4))
    rinshan_tsumo_fu: bool = _f(True, "2 fu for tsumo on a rinshan tile")
    haitei_with_rinshan: bool = _f(False, "haitei combines with rinshan on the last tile")
    ryuuiisou_needs_hatsu: bool = _f(False, "all green needs hatsu")
    chankan_ankan_kokushi: bool = _f(True, "kokushi may rob a concealed kan")
    two_yaku_minimum_honba: int = _f(0, "two-yaku minimum from this many counters (0: never)", bounds=(0, 20, 1))

    # --- the table --------------------------------------------------------------------------
    start_points: int = _f(30000, "starting points", scope="table", bounds=(1000, 1_000_000, 100), group=("points", 1))
    return_points: int = _f(30000, "return points (oka goes to first place)", scope="table", bounds=(1000, 1_000_000, 100), group=("points", 2))
    uma: tuple[int, ...] = _f((15000, 5000, -5000, -15000), "uma by place", scope="table", group=("points", 3))
    uma_by_positive: tuple[tuple[int, tuple[int, ...]], ...] = _f((), "uma by how many end at or above the return points", scope="table")
    tie_break: str = _f("split", "ties in the final standings", choices=("split", "seat_order"), scope="table")
    final_rounding: str = _f("none", "rounding of final points", choices=("none", "nearest_1000"), scope="table")
    honba_ron: int = _f(300, "honba value on ron", scope="table", bounds=(0, 3000, 100))
    honba_tsumo: int = _f(100, "honba value per payer on tsumo", scope="table", bounds=(0, 1000, 100))
    riichi_stick: int = _f(1000, "riichi stick", scope="table", bounds=(100, 10000, 100))
    riichi_needs_points: bool = _f(False, "riichi needs 1000 points in hand", scope="table", group=("wins", 6))
    noten_total: int = _f(3000, "noten payment in all", scope="table", bounds=(0, 12000, 100))
    abortive_draws: tuple[str, ...] = _f((), "abortive draws", items=ABORTIVE_DRAWS, scope="table", group=("wins", 1))
    max_ron_winners: int = _f(1, "winners on one discard (1: head bump)", choices=(1, 2, 3), scope="table", group=("wins", 0))
    multi_ron_honba: str = _f("each", "honba with several ron winners", choices=("each", "closest"), scope="table")
    multi_ron_sticks: str = _f("closest", "riichi sticks with several ron winners", choices=("closest", "closest_own_back"), scope="table")
    pao_yaku: tuple[str, ...] = _f(("daisangen", "daisuushii"), "liability (pao) yakuman", items=PAO_YAKU, scope="table", group=("wins", 3))
    pao_scope: str = _f("hand", "what a liable (pao) player answers for: the whole hand, or only the yakuman it is for",
                        choices=("hand", "yakuman"), scope="table")
    pao_ron_honba: str = _f("discarder", "who pays honba on a ron with pao", choices=("discarder", "liable", "split"), scope="table")
    nagashi_mangan: bool = _f(False, "nagashi mangan", scope="table", group=("wins", 2))
    nagashi_collects: bool = _f(True, "nagashi mangan collects honba and riichi sticks", scope="table")
    dealer_repeat_on_abort: bool = _f(True, "dealer repeats after an abortive draw", scope="table")
    leftover_sticks: str = _f("table", "riichi sticks left at the end", choices=("table", "first", "lost"), scope="table", group=("points", 7))
    agari_yame: bool = _f(False, "agari-yame: a first-placed dealer's win ends the last hand", scope="table", group=("points", 5))
    tenpai_yame: bool = _f(False, "tenpai-yame: a first-placed dealer's tenpai ends the last hand", scope="table", group=("points", 6))
    bust_ends_game: bool = _f(False, "the game ends when a player goes below zero", scope="table", group=("points", 4))
    extension_target: int = _f(0, "play into the West round until someone reaches this (0: never)", scope="table",
                               bounds=(0, 1_000_000, 100), group=("points", 8))
    chombo: str = _f("penalty", "chombo", choices=("penalty", "mangan"), scope="table", group=("wins", 4))
    chombo_penalty: int = _f(20000, "chombo penalty (points, off the final score)", scope="table",
                             bounds=(0, 1_000_000, 100), group=("wins", 5))
    game_length: str = _f("east_south", "game length: East and South rounds, or East only (tonpuusen)",
                          choices=("east_south", "east"), scope="table", group=("points", 0))
    ranking_tie_break: str = _f("shared", "equal totals in an event's standings",
                                choices=("shared", "placements"), scope="table")

    notes: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    # ------------------------------------------------------------------------------------
    @classmethod
    def parameters(cls) -> list[dataclasses.Field[Any]]:
        return [f for f in dataclasses.fields(cls) if f.name not in ("id", "title", "source", "notes")]

    def with_overrides(self, overrides: Mapping[str, Any] | None) -> Ruleset:
        """A variant with some parameters replaced; wrong names or values raise ScoringError."""
        if not overrides:
            return self
        if not isinstance(overrides, Mapping):
            raise ScoringError("rules", "malformed", "rules_object")
        known = {f.name: f for f in self.parameters()}
        changes: dict[str, Any] = {}
        for name, value in overrides.items():
            f = known.get(name)
            if f is None:
                raise ScoringError(f"rules.{name}", "malformed", "unknown_rule", name=name)
            changes[name] = _coerce(f, value, getattr(self, name))
        notes = {**self.notes, **{k: "overridden by the request" for k in changes}}
        return dataclasses.replace(self, **changes, id=self.id, notes=MappingProxyType(notes))

    def describe(self) -> dict[str, Any]:
        """Every parameter with its value, label and the note that justifies it."""
        params = {}
        for f in self.parameters():
            value = getattr(self, f.name)
            entry = {"value": list(value) if isinstance(value, tuple) else value, "label": f.metadata["label"], "scope": f.metadata["scope"]}
            if "choices" in f.metadata:
                entry["choices"] = list(f.metadata["choices"])
            if "items" in f.metadata:
                entry["items"] = list(f.metadata["items"])
            if "bounds" in f.metadata:
                lo, hi, step = f.metadata["bounds"]
                entry["range"] = {"min": lo, "max": hi, "step": step}
            if "group" in f.metadata:
                entry["group"] = f.metadata["group"][0]
            if f.name in self.notes:
                entry["note"] = self.notes[f.name]
            params[f.name] = entry
        return {"id": self.id, "title": self.title, "source": self.source, "parameters": params,
                "groups": self.groups()}

    @classmethod
    def groups(cls) -> list[dict[str, Any]]:
        """The house rules as a rule editor groups them: each of RULE_GROUPS with its fields in order."""
        placed = sorted((f.metadata["group"], f.name) for f in cls.parameters() if "group" in f.metadata)
        return [{"id": group, "parameters": [name for (g, _), name in placed if g == group]} for group in RULE_GROUPS]

    @property
    def rounds(self) -> int:
        """Regular rounds in a game: 1 (East only) or 2 (East and South)."""
        return 1 if self.game_length == "east" else 2

    def uma_for(self, positive: int) -> tuple[int, ...]:
        """The uma by place, given how many players end at or above the return points."""
        for count, uma in self.uma_by_positive:
            if count == positive:
                return tuple(uma)
        return tuple(self.uma)


MAX_UMA = 1_000_000


def _uma_ok(value: Any) -> bool:
    """Four whole numbers of points (in hundreds, within +-MAX_UMA) that sum to zero."""
    return (isinstance(value, (list, tuple)) and len(value) == 4
            and all(type(v) is int and -MAX_UMA <= v <= MAX_UMA and v % 100 == 0 for v in value) and sum(value) == 0)


def _coerce(f: dataclasses.Field[Any], value: Any, current: Any) -> Any:
    name = f.name
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise ScoringError(f"rules.{name}", "malformed", "not_true_false")
        return value
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ScoringError(f"rules.{name}", "malformed", "not_whole_number")
        if "choices" in f.metadata and value not in f.metadata["choices"]:
            raise ScoringError(f"rules.{name}", "impossible", "choice", choices=", ".join(map(str, f.metadata["choices"])))
        lo, hi, step = f.metadata.get("bounds", (0, 1_000_000, 1))
        if not lo <= value <= hi:
            raise ScoringError(f"rules.{name}", "impossible", "range", min=lo, max=hi)
        if value % step:
            raise ScoringError(f"rules.{name}", "impossible", "multiple_of", step=step)
        return value
    if isinstance(current, str):
        if not isinstance(value, str) or ("choices" in f.metadata and value not in f.metadata["choices"]):
            raise ScoringError(f"rules.{name}", "impossible", "choice", choices=", ".join(map(str, f.metadata["choices"])))
        return value
    if isinstance(current, tuple):
        if not isinstance(value, (list, tuple)):
            raise ScoringError(f"rules.{name}", "malformed", "not_list")
        if name == "uma":
            if not _uma_ok(value):
                raise ScoringError("rules.uma", "impossible", "uma_four", max=MAX_UMA)
            return tuple(value)
        if name == "uma_by_positive":
            pairs_ok = len(value) <= 5 and all(
                isinstance(p, (list, tuple)) and len(p) == 2 and type(p[0]) is int and 0 <= p[0] <= 4
                and isinstance(p[1], (list, tuple)) for p in value)
            if not pairs_ok:
                raise ScoringError("rules.uma_by_positive", "impossible", "uma_by_positive")
            if not all(_uma_ok(u) for _, u in value):
                raise ScoringError("rules.uma_by_positive", "impossible", "uma_by_positive")
            return tuple((c, tuple(u)) for c, u in value)
        allowed = f.metadata.get("items", ())
        bad = [v for v in value if v not in allowed]
        if bad:
            raise ScoringError(f"rules.{name}", "impossible", "unknown_values", values=", ".join(map(str, bad)),
                               choices=", ".join(map(str, allowed)))
        return tuple(v for v in allowed if v in value)
    raise ScoringError(f"rules.{name}", "malformed", "rule_fixed")  # pragma: no cover


#: Notes for values every text shares (RULESETS.md, "scoring arithmetic common to all"), or that
#: only matter when another parameter turns them on. A preset's own note replaces these.
COMMON_NOTES = {
    "honba_ron": "300 per counter on ron (common to all texts)",
    "honba_tsumo": "100 per counter from each payer on tsumo (common to all texts)",
    "riichi_stick": "1000 per riichi stick (common to all texts)",
    "noten_total": "3000 in all, split between noten and tenpai players (common to all texts)",
    "max_yakuman": "only used when yakuman add up",
    "renhou_han": "only used when renhou is a yaku of so many han",
    "double_riichi_han": "double riichi is worth 2 han in place of riichi's 1 (common to all texts)",
    "uma_by_positive": "none: the uma does not depend on how many players are positive",
    "final_rounding": "final points are not rounded",
    "multi_ron_honba": "only used when several players may win on one discard",
    "multi_ron_sticks": "only used when several players may win on one discard",
    "nagashi_collects": "only used with nagashi mangan",
    "tenpai_yame": "not in the text (assumption: a dealer's tenpai never ends the game)",
    "chombo_penalty": "only used when chombo is a point penalty",
    "pao_ron_honba": "assumption: the discarder pays the honba on a ron with pao",
    "dealer_repeat_on_abort": "only used with abortive draws",
    "extension_target": "no extension beyond South 4",
    "game_length": "a game is the East and South rounds (WRR glossary 'session', EMA 2.4, Saikouisen art. 27.5); "
                   "East only is a table's choice, with the same end conditions one round sooner",
    "ranking_tie_break": "not in the text: WRR's overall score is the sum of session scores and says no more, "
                         "EMA says nothing of an event ranking (assumption: equal totals share a rank; "
                         "'placements' ranks them by more firsts, then seconds, then thirds)",
}


def _preset(**kw: Any) -> Ruleset:
    notes = {**COMMON_NOTES, **kw.pop("notes")}
    return Ruleset(**kw, notes=MappingProxyType(notes))


WRR = _preset(
    id="wrr", title="World Riichi Rules", source="rules/world-riichi-rules.txt (2013)",
    red_fives=False, ippatsu=True, ura_dora=True, kan_dora=True, kan_ura_dora=True, open_tanyao=True,
    kiriage=False, kazoe_yakuman=False, yakuman_stacking=False, double_yakuman=(), renhou="han", renhou_han=5,
    double_wind_pair_fu=4, rinshan_tsumo_fu=True, haitei_with_rinshan=False, ryuuiisou_needs_hatsu=False,
    chankan_ankan_kokushi=True, two_yaku_minimum_honba=0,
    start_points=30000, return_points=30000, uma=(15000, 5000, -5000, -15000), tie_break="split",
    riichi_needs_points=False, abortive_draws=(), max_ron_winners=1, pao_yaku=("daisangen", "daisuushii"),
    pao_ron_honba="discarder", pao_scope="hand", nagashi_mangan=False, leftover_sticks="table", agari_yame=False,
    bust_ends_game=False, chombo="penalty", chombo_penalty=20000,
    notes={
        "red_fives": "3.3: red fives are not used",
        "ippatsu": "6.5.1 ippatsu", "ura_dora": "6.4 ura dora", "kan_dora": "6.4 kan dora", "kan_ura_dora": "6.4",
        "open_tanyao": "yaku table: tanyao 1 han open (the 6.5.1 wording 'closed hand' is contradicted by the table; the table is followed)",
        "kiriage": "6.1 tables: 4 han 30 fu is 7700 / 11600",
        "kazoe_yakuman": "6.1: no counted yakuman, 13+ han is sanbaiman",
        "yakuman_stacking": "6.5: yakuman yaku are not cumulative",
        "double_yakuman": "6.5.6: no double yakuman",
        "renhou": "6.5.4: renhou is a 5-han yaku, closed", "renhou_han": "6.5.4",
        "double_riichi_han": "6.5.1: double riichi is riichi + 1 han",
        "double_wind_pair_fu": "6.3 fu table: pair of double wind 4",
        "rinshan_tsumo_fu": "6.5.1 rinshan: counts as self-draw, 2 fu awarded",
        "haitei_with_rinshan": "6.5.1 haitei: only rinshan is scored on a last replacement tile",
        "ryuuiisou_needs_hatsu": "6.5.6: with or without green dragon",
        "chankan_ankan_kokushi": "6.5.1 chankan, 5.4.8",
        "two_yaku_minimum_honba": "not in the text: never",
        "start_points": "4.1: 30,000", "return_points": "2.3 session score: (points - 30,000) / 1,000 + uma",
        "uma": "5.9.2: +15/+5/-5/-15, ties split", "tie_break": "5.9.2: ties split",
        "riichi_needs_points": "6.1: a player below zero can still declare riichi",
        "noten_total": "5.7.2: 3000 in all", "abortive_draws": "5.7.3: none",
        "max_ron_winners": "5.7.6: head bump, one winner", "pao_yaku": "6.2: daisangen and daisuushii",
        "pao_scope": "6.2: the liable player pays 'the full value of the hand' (no yakuman add up under WRR)",
        "pao_ron_honba": "6.2: on ron only the discarder pays the counters",
        "nagashi_mangan": "not a WRR yaku", "dealer_repeat_on_abort": "no abortive draws",
        "leftover_sticks": "5.9: left on the table, nobody collects", "agari_yame": "5.9.1: no agari yame",
        "bust_ends_game": "4.1, 6.1: play continues below zero",
        "chombo": "7.1: 20-point penalty, re-deal, no payment", "chombo_penalty": "7.1: 20 points = 20,000",
        "extension_target": "not in the text: no extension",
    },
)

EMA = _preset(
    id="ema", title="EMA Riichi Rules 2008", source="rules/ema-riichi-rules-2008.txt",
    red_fives=True, ippatsu=True, ura_dora=True, kan_dora=True, kan_ura_dora=True, open_tanyao=False,
    kiriage=False, kazoe_yakuman=True, yakuman_stacking=False, double_yakuman=DOUBLE_YAKUMAN_KINDS,
    renhou="yakuman", double_wind_pair_fu=4, rinshan_tsumo_fu=True, haitei_with_rinshan=False,
    ryuuiisou_needs_hatsu=False, chankan_ankan_kokushi=True, two_yaku_minimum_honba=5,
    start_points=30000, return_points=30000, uma=(9000, 3000, -3000, -9000), tie_break="split",
    riichi_needs_points=False, abortive_draws=("nine_terminals", "four_winds", "four_kans", "four_riichi"),
    max_ron_winners=3, multi_ron_honba="each", multi_ron_sticks="closest_own_back", pao_yaku=("daisangen", "daisuushii"),
    pao_ron_honba="discarder", pao_scope="hand", nagashi_mangan=True, nagashi_collects=True, dealer_repeat_on_abort=True, leftover_sticks="first",
    agari_yame=False, bust_ends_game=False, chombo="mangan", chombo_penalty=0,
    notes={
        "red_fives": "1.1: three red fives, one per suit; 4.1 they add a fan each",
        "ippatsu": "4.2.1", "ura_dora": "3.3.12", "kan_dora": "3.3.2", "kan_ura_dora": "3.3.12: tiles underneath any kan dora indicators",
        "open_tanyao": "preface and 4.2.1: all simples only on a concealed hand",
        "kiriage": "4.1.3 tables: 4 fan 30 fu is 7700 / 11600",
        "kazoe_yakuman": "limit table: 13+ fan is yakuman",
        "yakuman_stacking": "4.2: yakuman are not cumulative",
        "double_yakuman": "4.2.5: thirteen-sided kokushi, nine-sided chuuren and suuankou single wait +1 yakuman; "
                          "daisuushii two yakuman; no extra for the wait on tenhou",
        "renhou": "4.2.5: renhou is yakuman",
        "double_riichi_han": "4.2.1: daburu riichi is an extra yaku on riichi",
        "double_wind_pair_fu": "4.1.1: pair of seat wind 2 + pair of prevalent wind 2",
        "rinshan_tsumo_fu": "4.2.1 rinchan kaihou: counts as self-draw",
        "haitei_with_rinshan": "not in the text (assumption: not combined, as in WRR)",
        "ryuuiisou_needs_hatsu": "4.2.5: green dragons and 2, 3, 4, 6, 8 of bamboo; hatsu not required",
        "chankan_ankan_kokushi": "3.3.8: a concealed kong can be robbed only for thirteen orphans",
        "two_yaku_minimum_honba": "3.4.11: from five counters on, two yaku (fan from yaku, not dora) are needed",
        "start_points": "not in the text (assumption: EMA practice, 30,000)",
        "return_points": "not in the text (assumption: 30,000, no oka)",
        "uma": "3.6.1: +9000/+3000/-3000/-9000, ties split", "tie_break": "3.6.1: ties split",
        "riichi_needs_points": "not in the text (assumption: no minimum)",
        "noten_total": "3.4.2: 3000 in all",
        "abortive_draws": "3.4.3: nine terminals, four kongs by different players, four winds, four riichi",
        "max_ron_winners": "3.3.1, 4.1: several players may win on the same discard, each paid in full",
        "multi_ron_honba": "4.1: each winner receives the value including counters",
        "multi_ron_sticks": "4.1: winners get their own riichi bet back; the others go to the winner closest to the discarder's right",
        "pao_yaku": "3.3.6: third dragon pung, fourth wind pung",
        "pao_scope": "3.3.6: the liable player pays 'the full value of the hand': big four winds is two yakuman and all of "
                      "it",
        "pao_ron_honba": "not in the text (assumption: discarder, as in WRR)",
        "nagashi_mangan": "4.2.4: paid as a self-drawn mangan plus counters and riichi bets",
        "nagashi_collects": "4.2.4: plus counters and richi bets",
        "dealer_repeat_on_abort": "3.4.10: a counter is placed after an abortive draw (assumption: the dealer stays, as RULESETS.md reads it)",
        "leftover_sticks": "3.6: riichi bets remaining are collected by the winner",
        "agari_yame": "not in the text (assumption: no)", "bust_ends_game": "not in the text (assumption: no)",
        "chombo": "3.4.6: mangan payment, 4000 to East and 2000 to others; East pays 4000 each",
        "extension_target": "not in the text: no extension",
    },
)

JPML = _preset(
    id="jpml", title="JPML A-rules 2023", source="rules/jpml-a-rules-2023.txt",
    red_fives=False, ippatsu=False, ura_dora=False, kan_dora=False, kan_ura_dora=False, open_tanyao=True,
    kiriage=False, kazoe_yakuman=False, yakuman_stacking=True, max_yakuman=6, double_yakuman=(), renhou="none",
    double_wind_pair_fu=2, rinshan_tsumo_fu=True, haitei_with_rinshan=False, ryuuiisou_needs_hatsu=False,
    chankan_ankan_kokushi=False, two_yaku_minimum_honba=0,
    start_points=30000, return_points=30000, uma=(8000, 4000, -4000, -8000),
    uma_by_positive=((1, (12000, -1000, -3000, -8000)), (2, (8000, 4000, -4000, -8000)), (3, (8000, 3000, 1000, -12000))),
    tie_break="split", riichi_needs_points=False, abortive_draws=(), max_ron_winners=1,
    pao_yaku=("daisangen", "daisuushii", "suukantsu"), pao_ron_honba="discarder", pao_scope="yakuman", nagashi_mangan=False,
    leftover_sticks="lost", agari_yame=False, bust_ends_game=False, chombo="penalty", chombo_penalty=20000,
    notes={
        "red_fives": "not in the text: no red fives (league practice)",
        "ippatsu": "fundamental 3: no ippatsu", "ura_dora": "fundamental 3: no uradora",
        "kan_dora": "fundamental 3, kan 1: no kandora", "kan_ura_dora": "kan 1: no kan uradora",
        "open_tanyao": "fundamental 1: kuitan allowed",
        "kiriage": "winning points 1: 4 han 30 fu stays 7,700 / 11,600",
        "kazoe_yakuman": "winning points 2: 11 han and up is sanbaiman, no kazoe",
        "yakuman_stacking": "winning points 3: double, triple yakuman and so forth",
        "max_yakuman": "winning points 3 sets no cap (six is the most a hand can hold)",
        "double_yakuman": "not in the text: no double yakuman for a wait",
        "renhou": "not in the text: not a yaku",
        "double_riichi_han": "not in the text (assumption: 2 han, the common value)",
        "double_wind_pair_fu": "winning points 4: 2 fu",
        "rinshan_tsumo_fu": "winning points 5: tsumo fu on the rinshan tile",
        "haitei_with_rinshan": "kan 4: rinshan kaihou and haitei do not overlap",
        "ryuuiisou_needs_hatsu": "winning points 6: hatsu not needed",
        "chankan_ankan_kokushi": "kan 3: kokushi cannot rob a closed kan",
        "two_yaku_minimum_honba": "not in the text: never",
        "start_points": "not in the text (assumption: league practice, 30,000)",
        "return_points": "not in the text (assumption: 30,000, no oka)",
        "uma": "placement points for two players positive (used when the count rule does not apply)",
        "uma_by_positive": "placement points: by how many are positive; exactly 0 counts as positive",
        "tie_break": "placement points: divided on ties",
        "riichi_needs_points": "not in the text (assumption: no minimum)",
        "noten_total": "fundamental 4: 3000", "abortive_draws": "renchan and ryuukyoku 3: no hand aborts",
        "max_ron_winners": "fundamental 6: atamahane",
        "pao_yaku": "yakuman pao: big three dragons, big four winds, four kans",
        "pao_scope": "Yakuman Pao: liability is for the yakuman named; on a double yakuman by tsumo 'honba will be paid by "
                      "everyone', so the rest of the hand is paid as usual (assumption: each yakuman is paid on its own)",
        "pao_ron_honba": "yakuman pao: the player dealing in is responsible for all honba on ron",
        "nagashi_mangan": "not in the text: no", "dealer_repeat_on_abort": "no abortive draws",
        "leftover_sticks": "riichi 4: remaining deposits after South 4 are lost",
        "agari_yame": "fundamental 8: no agariyame", "bust_ends_game": "not in the text (assumption: no)",
        "chombo": "furiten, chombo 3-4: chombo (amount not in the text; assumption: league practice, 20-point penalty)",
        "chombo_penalty": "assumption: 20 points = 20,000",
        "extension_target": "not in the text: no extension",
    },
)

SAIKOUISEN = _preset(
    id="saikouisen", title="Saikouisen competition rules", source="rules/saikouisen-competition-rules.txt (2025)",
    red_fives=False, ippatsu=True, ura_dora=True, kan_dora=True, kan_ura_dora=True, open_tanyao=True,
    kiriage=True, kazoe_yakuman=False, yakuman_stacking=True, max_yakuman=4, double_yakuman=(), renhou="none",
    double_wind_pair_fu=2, rinshan_tsumo_fu=True, haitei_with_rinshan=False, ryuuiisou_needs_hatsu=False,
    chankan_ankan_kokushi=False, two_yaku_minimum_honba=0,
    start_points=30000, return_points=30000, uma=(30000, 10000, -10000, -30000), tie_break="split",
    riichi_needs_points=False, abortive_draws=(), max_ron_winners=1, pao_yaku=("daisangen", "daisuushii"),
    pao_ron_honba="discarder", pao_scope="yakuman", nagashi_mangan=False, leftover_sticks="table", agari_yame=False,
    bust_ends_game=False, chombo="penalty", chombo_penalty=20000,
    notes={
        "red_fives": "art. 2, 24: no red fives listed",
        "ippatsu": "art. 48 ippatsu", "ura_dora": "art. 24.7", "kan_dora": "art. 24.5, 43.3: at once on every kan",
        "kan_ura_dora": "art. 24.7 (assumption: under every indicator, as RULESETS.md reads it)",
        "open_tanyao": "art. 48: tanyao marked ● (open allowed)",
        "kiriage": "art. 47 tables: 4 han 30 fu and 3 han 60 fu pay 8000 / 12000",
        "kazoe_yakuman": "art. 47: 11 han and more is sanbaiman",
        "yakuman_stacking": "art. 47.2: double, triple, quadruple yakuman", "max_yakuman": "art. 47.2: up to quadruple",
        "double_yakuman": "not in the text: no double yakuman for a wait",
        "renhou": "art. 48: not listed", "double_riichi_han": "art. 48: double riichi 2 han, does not stack with riichi",
        "double_wind_pair_fu": "art. 49 lists 2 fu for a yakuhai pair (assumption: 2 fu for a double wind too)",
        "rinshan_tsumo_fu": "art. 49.1(3): every tsumo win adds 2 fu; rinshan is a tsumo (art. 48)",
        "haitei_with_rinshan": "not in the text (assumption: not combined)",
        "ryuuiisou_needs_hatsu": "art. 48: 2,3,4,6,8 of souzu and/or hatsu",
        "chankan_ankan_kokushi": "art. 48 chankan: ron on a kakan tile only",
        "two_yaku_minimum_honba": "art. 45.1: one han yaku suffices",
        "start_points": "not in the text (assumption: league practice, 30,000)",
        "return_points": "not in the text (assumption: 30,000, no oka)",
        "uma": "not in the text (assumption: league practice, +30/+10/-10/-30)", "tie_break": "assumption: split",
        "riichi_needs_points": "not in the text (assumption: no minimum)",
        "noten_total": "art. 52.8: 1000 / 1500 / 1000 pattern, 3000 in all", "abortive_draws": "art. 52: none listed",
        "max_ron_winners": "art. 45.4: atama hane", "pao_yaku": "not in the text (assumption: daisangen and daisuushii)",
        "pao_scope": 'not in the text (assumption: only the yakuman it is for, Japanese league practice)',
        "pao_ron_honba": "assumption: the discarder", "nagashi_mangan": "not listed",
        "dealer_repeat_on_abort": "no abortive draws", "leftover_sticks": "art. 39.12: left on the table",
        "agari_yame": "art. 27.6: renchan continues until South 4 ends without one",
        "bust_ends_game": "not in the text (assumption: no)",
        "chombo": "art. 54.1: 20 points off the total, re-deal", "chombo_penalty": "art. 54.1: 20 points",
        "extension_target": "not in the text: no extension",
    },
)

GENERAL = _preset(
    id="general", title="Japanese General Laws of Mahjong", source="rules/japanese-general-laws.txt (v0.90)",
    red_fives=False, ippatsu=True, ura_dora=True, kan_dora=True, kan_ura_dora=True, open_tanyao=True,
    kiriage=False, kazoe_yakuman=True, yakuman_stacking=True, max_yakuman=6, double_yakuman=(), renhou="none",
    double_wind_pair_fu=4, rinshan_tsumo_fu=True, haitei_with_rinshan=False, ryuuiisou_needs_hatsu=False,
    chankan_ankan_kokushi=True, two_yaku_minimum_honba=0,
    start_points=25000, return_points=30000, uma=(30000, 10000, -10000, -30000), tie_break="split",
    riichi_needs_points=True, abortive_draws=(), max_ron_winners=1, pao_yaku=("daisangen", "daisuushii", "suukantsu"),
    pao_ron_honba="discarder", pao_scope="yakuman", nagashi_mangan=False, leftover_sticks="first", agari_yame=True, tenpai_yame=False,
    bust_ends_game=True, chombo="mangan", chombo_penalty=0,
    notes={
        "red_fives": "dora section names dora, ura, kan dora only (assumption: no red fives)",
        "ippatsu": "section two part three", "ura_dora": "dora section", "kan_dora": "dora section",
        "kan_ura_dora": "dora section: kan-ura-dora",
        "open_tanyao": "section three: no kuitan nashi",
        "kiriage": "not in the text (assumption: no)",
        "kazoe_yakuman": "not in the text (assumption: Japanese house practice, 13 han is yakuman)",
        "yakuman_stacking": "not in the text (assumption: Japanese house practice, yakuman add up)",
        "double_yakuman": "not in the text (assumption: none for a wait)",
        "renhou": "not in the text (assumption: not a yaku)", "double_riichi_han": "not in the text (assumption: 2 han)",
        "double_wind_pair_fu": "not in the text (assumption: 4 fu, house practice)",
        "rinshan_tsumo_fu": "not in the text (assumption: yes)",
        "haitei_with_rinshan": "section eleven: winning from a supplementary tile does not combine with winning on the last tile",
        "ryuuiisou_needs_hatsu": "not in the text (assumption: no)",
        "chankan_ankan_kokushi": "not in the text (assumption: yes)",
        "two_yaku_minimum_honba": "section three: never more than one yaku required",
        "start_points": "section eleven: begin with 25,000", "return_points": "section eleven: return 30,000, the 20,000 go to the winner",
        "uma": "section eleven: +30,000 / +10,000 / -10,000 / -30,000", "tie_break": "section eleven: split",
        "riichi_needs_points": "not in the text (assumption: the 1000-point stick must be paid, as hakoten ends the game)",
        "noten_total": "section five part three: 3000", "abortive_draws": "section six: no reason a round should end",
        "max_ron_winners": "section three: only one winner, first in order from the discarder",
        "pao_yaku": "section five part four: daisangen, daisuushii, suukantsu",
        "pao_scope": "part four names who is 'responsible' but not for how much (assumption: only the yakuman it is for)",
        "pao_ron_honba": "not in the text (assumption: the discarder)",
        "nagashi_mangan": "not in the text (assumption: no)", "dealer_repeat_on_abort": "no abortive draws",
        "leftover_sticks": "section two: remaining riichi sticks go to the winner of the game",
        "agari_yame": "section seven: the dealer who wins the final round as high scorer may end the game",
        "tenpai_yame": "section seven: becoming high scorer by noten payments continues the game",
        "bust_ends_game": "section seven: hakoten ends the game",
        "chombo": "section five part one: mangan payment", "extension_target": "not in the text: no extension",
    },
)

#: What both online servers publish alike.
ONLINE_NOTES = {
    "ippatsu": "yes", "ura_dora": "yes", "kan_dora": "yes, revealed for every kan", "kan_ura_dora": "yes",
    "open_tanyao": "kuitan allowed", "kiriage": "no kiriage mangan", "max_yakuman": "up to six yakuman",
    "double_riichi_han": "2 han", "ryuuiisou_needs_hatsu": "hatsu not needed",
    "chankan_ankan_kokushi": "kokushi may rob a concealed kan", "two_yaku_minimum_honba": "never",
    "noten_total": "3000 in all", "chombo_penalty": "only used when chombo is a point penalty",
}

TENHOU = _preset(
    id="tenhou", title="Tenhou (online)", source="Tenhou.net published rules (four-player, red fives)",
    red_fives=True, ippatsu=True, ura_dora=True, kan_dora=True, kan_ura_dora=True, open_tanyao=True,
    kiriage=False, kazoe_yakuman=True, yakuman_stacking=True, max_yakuman=6, double_yakuman=(), renhou="none",
    double_wind_pair_fu=4, rinshan_tsumo_fu=True, haitei_with_rinshan=False, ryuuiisou_needs_hatsu=False,
    chankan_ankan_kokushi=True, two_yaku_minimum_honba=0,
    start_points=25000, return_points=30000, uma=(20000, 10000, -10000, -20000), tie_break="seat_order",
    final_rounding="nearest_1000", riichi_needs_points=True,
    abortive_draws=("nine_terminals", "four_winds", "four_kans", "four_riichi", "triple_ron"),
    max_ron_winners=2, multi_ron_honba="closest", pao_yaku=("daisangen", "daisuushii"), pao_ron_honba="liable", pao_scope="yakuman",
    nagashi_mangan=True, nagashi_collects=False, dealer_repeat_on_abort=True, leftover_sticks="first",
    agari_yame=True, tenpai_yame=True, bust_ends_game=True, extension_target=30000, chombo="mangan", chombo_penalty=0,
    notes={
        **ONLINE_NOTES,
        "red_fives": "one red five per suit", "kazoe_yakuman": "13 han is yakuman",
        "yakuman_stacking": "multiple yakuman count", "double_yakuman": "no double yakuman for a wait or for daisuushii",
        "renhou": "not a yaku", "double_wind_pair_fu": "a double wind pair is worth 4 fu",
        "rinshan_tsumo_fu": "rinshan tsumo is worth 2 fu", "haitei_with_rinshan": "not combined",
        "start_points": "25,000", "return_points": "30,000, oka to first place", "uma": "10-20",
        "tie_break": "ties go to the earlier dealer", "final_rounding": "final points rounded to the nearest thousand",
        "riichi_needs_points": "1000 points needed to declare riichi",
        "abortive_draws": "nine terminals, four riichi, three ron, four kans, four winds",
        "max_ron_winners": "double ron allowed; three ron is an abortive draw",
        "multi_ron_honba": "repeats and deposits go to the winner closest to the discarder",
        "multi_ron_sticks": "deposits go to the winner closest to the discarder",
        "pao_yaku": "daisangen and daisuushii", "pao_scope": 'pao covers the yakuman it is for; other yakuman of the hand are paid as usual',
        "pao_ron_honba": "related repeats are paid through pao",
        "nagashi_mangan": "tenpai payments are replaced by the mangan payment",
        "nagashi_collects": "assumption: nagashi mangan takes no repeats or deposits",
        "dealer_repeat_on_abort": "all abortive draws count as renchan",
        "leftover_sticks": "riichi deposits go to first place", "agari_yame": "automatic in all-last",
        "tenpai_yame": "automatic in all-last", "bust_ends_game": "a player below zero ends the game",
        "extension_target": "sudden death into the West round until someone has 30,000",
        "chombo": "online play has no chombo (assumption for a table: mangan payment)",
    },
)

MAHJONGSOUL = _preset(
    id="mahjongsoul", title="Mahjong Soul (online)", source="Mahjong Soul ranked-match rules (four-player south game)",
    red_fives=True, ippatsu=True, ura_dora=True, kan_dora=True, kan_ura_dora=True, open_tanyao=True,
    kiriage=False, kazoe_yakuman=True, yakuman_stacking=True, max_yakuman=6, double_yakuman=DOUBLE_YAKUMAN_KINDS,
    renhou="none", double_wind_pair_fu=4, rinshan_tsumo_fu=True, haitei_with_rinshan=False,
    ryuuiisou_needs_hatsu=False, chankan_ankan_kokushi=True, two_yaku_minimum_honba=0,
    start_points=25000, return_points=25000, uma=(15000, 5000, -5000, -15000), tie_break="seat_order",
    riichi_needs_points=True, abortive_draws=("nine_terminals", "four_winds", "four_kans", "four_riichi"),
    max_ron_winners=3, multi_ron_honba="closest", pao_yaku=("daisangen", "daisuushii"), pao_ron_honba="liable", pao_scope="yakuman",
    nagashi_mangan=True, nagashi_collects=False, dealer_repeat_on_abort=True, leftover_sticks="first",
    agari_yame=True, tenpai_yame=True, bust_ends_game=True, extension_target=30000, chombo="mangan", chombo_penalty=0,
    notes={
        **ONLINE_NOTES,
        "red_fives": "one red five per suit",
        "rinshan_tsumo_fu": "rinshan tsumo is worth 2 fu", "haitei_with_rinshan": "not combined",
        "riichi_needs_points": "1000 points needed to declare riichi",
        "pao_scope": 'separate responsibility per yakuman: only the yakuman it is for',
        "pao_ron_honba": "assumption: the liable player pays the honba, as on Tenhou",
        "dealer_repeat_on_abort": "abortive draws are renchan", "final_rounding": "assumption: not rounded",
        "double_yakuman": "thirteen-sided kokushi, pure nine gates, suuankou tanki and daisuushii are double",
        "yakuman_stacking": "composite yakuman add up", "kazoe_yakuman": "13 han is yakuman",
        "renhou": "not in ranked play", "double_wind_pair_fu": "assumption: 4 fu, as on Tenhou",
        "start_points": "25,000", "return_points": "assumption: 25,000, no oka (ranked points are separate)",
        "uma": "assumption: +15/+5/-5/-15 for a casual table", "tie_break": "ties go to the earlier dealer",
        "abortive_draws": "four winds, four kans, nine terminals, four riichi; triple ron is not an abortive draw",
        "max_ron_winners": "double and triple ron allowed", "multi_ron_honba": "assumption: to the winner closest to the discarder, as on Tenhou",
        "multi_ron_sticks": "assumption: to the winner closest to the discarder, as on Tenhou",
        "pao_yaku": "big three dragons, big four winds, separate responsibility per yakuman",
        "nagashi_mangan": "allowed, in place of tenpai payments", "nagashi_collects": "assumption: no repeats or deposits",
        "leftover_sticks": "to first place", "agari_yame": "automatic in all-last", "tenpai_yame": "automatic in all-last",
        "bust_ends_game": "below zero ends the game", "extension_target": "West round until someone has 30,000",
        "chombo": "online play has no chombo (assumption for a table: mangan payment)",
    },
)

PRESETS: Mapping[str, Ruleset] = MappingProxyType({r.id: r for r in (WRR, EMA, JPML, SAIKOUISEN, GENERAL, TENHOU, MAHJONGSOUL)})


def get_ruleset(name: Any, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset called ``name`` with ``overrides`` applied."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ScoringError("ruleset", "impossible", "unknown_ruleset", name=str(name))
    return PRESETS[name].with_overrides(overrides)
