"""Command line: ``python -m scoring 234m067p345s11z555z --win-tile 5z --seat south``.

Prints a readable breakdown (or ``--json``). ``--waits`` analyses a 13-tile hand instead;
``--request FILE`` reads a JSON request (``-`` for stdin), as POST /api/score takes it.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import ScoringError, rulesets, score, waits
from .rules import PRESETS

FLAG_NAMES = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan", "tenhou", "chiihou", "renhou")


def _parse_melds(text: str) -> list[dict[str, Any]]:
    melds = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        kind, _, tiles = part.partition(":")
        if not tiles:
            raise SystemExit(f"--melds: write each meld as type:tiles, like pon:777z (got {part!r})")
        melds.append({"type": kind, "tiles": tiles})
    return melds


def _parse_rule(text: str) -> tuple[str, Any]:
    key, _, raw = text.partition("=")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def build_request(args: argparse.Namespace) -> dict[str, Any]:
    if args.request:
        stream = sys.stdin if args.request == "-" else open(args.request, encoding="utf-8")
        with stream:
            request = json.load(stream)
        if not isinstance(request, dict):
            raise SystemExit(f"{args.request}: the request must be a JSON object")
        return request
    if not args.hand:
        raise SystemExit("give a hand (like 234m067p345s11z555z) or --request FILE")
    req = {"ruleset": args.ruleset, "hand": args.hand, "win": "tsumo" if args.tsumo else "ron",
           "seat_wind": args.seat, "round_wind": args.round, "honba": args.honba, "riichi_sticks": args.sticks,
           "dora_indicators": args.dora, "ura_indicators": args.ura}
    if args.win_tile:
        req["win_tile"] = args.win_tile
    if args.melds:
        req["melds"] = _parse_melds(args.melds)
    if args.rule:
        req["rules"] = dict(_parse_rule(r) for r in args.rule)
    if args.compare:
        req["compare"] = args.compare.split(",")
    if args.discards:
        req["discards"] = args.discards
    for name in FLAG_NAMES:
        if getattr(args, name):
            req[name] = True
    return req


def format_result(r: dict[str, Any]) -> str:
    lines = [f"{r['hand']}" + "".join(f" [{m['type']} {m['tiles']}]" for m in r["melds"])
             + f"  {r['win']} on {r['win_tile']}  ({r['ruleset']}, {'dealer' if r['dealer'] else 'non-dealer'})"]
    lines.append("  reading: " + " ".join(r["groups"]) + f"  (wait: {r['wait']})")
    for y in r["yaku"]:
        mult = f" x{y['yakuman']} yakuman" if y.get("yakuman") else ""
        lines.append(f"  {y['name']:<52}{y['han']:>3} han{mult}")
    if r["fu_details"]:
        parts = " + ".join(f"{d['fu']} {d['label']}" for d in r["fu_details"])
        lines.append(f"  fu: {parts} -> {r['fu']}")
    value = f"{r['han']} han {r['fu']} fu" if not r["yakuman"] else f"{r['yakuman']}x yakuman"
    if r["limit"]:
        value += f" ({'kazoe ' if r.get('kazoe') else ''}{r['limit']})"
    pays = ", ".join(f"{k.replace('_', '-')} pays {v}" for k, v in r["payments"].items())
    lines.append(f"  {value}: {r['points']} points; {pays}")
    extra: list[str] = []
    if r["honba"]:
        extra.append(f"{r['honba']} honba")
    if r["riichi_sticks"]:
        extra.append(f"{r['riichi_sticks']} riichi stick(s)")
    lines.append(f"  total to the winner: {r['total']}" + (f" (with {', '.join(extra)})" if extra else ""))
    for note in r["notes"]:
        lines.append(f"  note: {note}")
    for row in r.get("compare", []):
        if "error" in row:
            lines.append(f"  under {row['ruleset']}: cannot win ({row['error']['message']})")
        else:
            lines.append(f"  under {row['ruleset']}: {row['han']} han {row['fu']} fu, {row['points']} points")
        for d in row["differs_by"]:
            lines.append(f"      because of: {d['label']}")
    return "\n".join(lines)


def format_waits(r: dict[str, Any]) -> str:
    if not r["tenpai"]:
        return f"{r['hand']}: not tenpai"
    lines = [f"{r['hand']} waits on:" + ("  (furiten)" if r["furiten"] else "")]
    for e in r["waits"]:
        if e["ron"] is None:
            lines.append(f"  {e['tile']}: {e['reason']}")
            continue
        cells = []
        for how in ("ron", "tsumo"):
            v = e[how]
            cells.append(f"{how} {v['error']['message']}" if "error" in v else f"{how} {v['han']}h{v['fu']}f {v['points']}")
        lines.append(f"  {e['tile']}: " + "; ".join(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m scoring", description="Score a riichi mahjong hand.")
    p.add_argument("hand", nargs="?", help="concealed tiles including the winning tile, e.g. 234m067p345s11z555z")
    p.add_argument("--ruleset", default="wrr", choices=list(PRESETS))
    p.add_argument("--melds", help="called groups and concealed kans: pon:777z,chi:123m,ankan:1111p")
    p.add_argument("--win-tile", help="the winning tile (default: the last tile written)")
    p.add_argument("--tsumo", action="store_true", help="won by self-draw (default: ron)")
    p.add_argument("--seat", default="east", choices=("east", "south", "west", "north"))
    p.add_argument("--round", default="east", choices=("east", "south", "west", "north"))
    p.add_argument("--dora", default="", help="dora indicators, e.g. 3m1z")
    p.add_argument("--ura", default="", help="ura dora indicators")
    p.add_argument("--honba", type=int, default=0)
    p.add_argument("--sticks", type=int, default=0, help="riichi sticks on the table, this hand's included")
    p.add_argument("--rule", action="append", help="override a rule parameter: --rule kiriage=true")
    p.add_argument("--compare", help="comma-separated rule sets to compare, e.g. wrr,ema,tenhou")
    p.add_argument("--waits", action="store_true", help="analyse the waits of a 13-tile hand")
    p.add_argument("--discards", help="your discards, for furiten in --waits")
    p.add_argument("--request", help="read a JSON request from FILE ('-' for stdin)")
    p.add_argument("--rulesets", action="store_true", help="list the presets and their parameters")
    p.add_argument("--json", action="store_true", help="print the JSON response")
    for name in FLAG_NAMES:
        p.add_argument("--" + name.replace("_", "-"), dest=name, action="store_true")
    args = p.parse_args(argv)

    if args.rulesets:
        print(json.dumps(rulesets(), indent=2))
        return 0
    request = build_request(args)
    try:
        result = waits(request) if args.waits else score(request)
    except ScoringError as err:
        print(f"error in {err.field or 'request'}: {err.message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(format_waits(result) if args.waits else format_result(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
