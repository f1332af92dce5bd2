"""Generated from scoring/contract.py by ``python -m scoring.contract``: do not edit (tests/test_contract.py
checks it is up to date). The quick tests of scoring/schema.py.accepts, compiled with the scoring core."""
# ruff: noqa
from __future__ import annotations

import re
from typing import Any

_k1 = re.compile('^[ ,]*(?:(?:[0-9]+[mps]|[1-7]+z)[ ,]*)*\\Z')
_k1_good: set[str] = set()


def _k1_learn(text: str) -> bool:
    if _k1.search(text) is None:
        return False
    if len(_k1_good) < 50_000:
        _k1_good.add(text)
    return True

_k2 = frozenset(['ankan', 'chi', 'daiminkan', 'kakan', 'pon'])
_k3 = frozenset(['ron', 'tsumo'])
_k4 = re.compile('^(?:[ ,]*(?:[0-9][mps]|[1-7]z)[ ,]*)?\\Z')
_k4_good: set[str] = set()


def _k4_learn(text: str) -> bool:
    if _k4.search(text) is None:
        return False
    if len(_k4_good) < 50_000:
        _k4_good.add(text)
    return True

_k5 = frozenset(['east', 'north', 'south', 'west'])
_k6 = frozenset(['east', 'north', 'south', 'west'])
_k7 = frozenset(['ema', 'general', 'jpml', 'mahjongsoul', 'saikouisen', 'tenhou', 'wrr'])
_k8 = frozenset(['abortive_draws', 'agari_yame', 'bust_ends_game', 'chankan_ankan_kokushi', 'chombo', 'chombo_penalty', 'dealer_repeat_on_abort', 'double_riichi_han', 'double_wind_pair_fu', 'double_yakuman', 'extension_target', 'final_rounding', 'game_length', 'haitei_with_rinshan', 'honba_ron', 'honba_tsumo', 'ippatsu', 'kan_dora', 'kan_ura_dora', 'kazoe_yakuman', 'kiriage', 'leftover_sticks', 'max_ron_winners', 'max_yakuman', 'multi_ron_honba', 'multi_ron_sticks', 'nagashi_collects', 'nagashi_mangan', 'noten_total', 'open_tanyao', 'pao_ron_honba', 'pao_scope', 'pao_yaku', 'ranking_tie_break', 'red_fives', 'renhou', 'renhou_han', 'return_points', 'riichi_needs_points', 'riichi_stick', 'rinshan_tsumo_fu', 'ryuuiisou_needs_hatsu', 'start_points', 'tenpai_yame', 'tie_break', 'two_yaku_minimum_honba', 'uma', 'uma_by_positive', 'ura_dora', 'yakuman_stacking'])
_k9 = frozenset(['ema', 'general', 'jpml', 'mahjongsoul', 'saikouisen', 'tenhou', 'wrr'])


def _o0(d: dict[Any, Any]) -> bool:
    return bool((type(d) is dict and 'hand' in d and ('hand' not in d or (((type(d['hand']) is str and (d['hand'] in _k1_good or _k1_learn(d['hand'])))))) and ('melds' not in d or (((type(d['melds']) is list and len(d['melds']) <= 4 and all((((type(x1) is dict and _o1(x1)))) for x1 in d['melds'])) or d['melds'] is None))) and ('win' not in d or ((type(d['win']) is str and d['win'] in _k3) and ((type(d['win']) is str)))) and ('win_tile' not in d or (((type(d['win_tile']) is str and (d['win_tile'] in _k4_good or _k4_learn(d['win_tile']))) or d['win_tile'] is None))) and ('seat_wind' not in d or ((type(d['seat_wind']) is str and d['seat_wind'] in _k5) and ((type(d['seat_wind']) is str)))) and ('round_wind' not in d or ((type(d['round_wind']) is str and d['round_wind'] in _k6) and ((type(d['round_wind']) is str)))) and ('dora_indicators' not in d or (((type(d['dora_indicators']) is str and (d['dora_indicators'] in _k1_good or _k1_learn(d['dora_indicators']))) or (type(d['dora_indicators']) is list and all((((type(x2) is str and (x2 in _k1_good or _k1_learn(x2))))) for x2 in d['dora_indicators'])) or d['dora_indicators'] is None))) and ('ura_indicators' not in d or (((type(d['ura_indicators']) is str and (d['ura_indicators'] in _k1_good or _k1_learn(d['ura_indicators']))) or (type(d['ura_indicators']) is list and all((((type(x3) is str and (x3 in _k1_good or _k1_learn(x3))))) for x3 in d['ura_indicators'])) or d['ura_indicators'] is None))) and ('dora_count' not in d or (((type(d['dora_count']) is int and d['dora_count'] >= 0 and d['dora_count'] <= 40)))) and ('honba' not in d or (((type(d['honba']) is int and d['honba'] >= 0 and d['honba'] <= 999)))) and ('riichi_sticks' not in d or (((type(d['riichi_sticks']) is int and d['riichi_sticks'] >= 0 and d['riichi_sticks'] <= 999)))) and ('ruleset' not in d or ((type(d['ruleset']) is str and d['ruleset'] in _k7) and ((type(d['ruleset']) is str)))) and ('rules' not in d or (((type(d['rules']) is dict and _o2(d['rules'])) or d['rules'] is None))) and ('riichi' not in d or (((d['riichi'] is True or d['riichi'] is False)))) and ('double_riichi' not in d or (((d['double_riichi'] is True or d['double_riichi'] is False)))) and ('ippatsu' not in d or (((d['ippatsu'] is True or d['ippatsu'] is False)))) and ('haitei' not in d or (((d['haitei'] is True or d['haitei'] is False)))) and ('houtei' not in d or (((d['houtei'] is True or d['houtei'] is False)))) and ('rinshan' not in d or (((d['rinshan'] is True or d['rinshan'] is False)))) and ('chankan' not in d or (((d['chankan'] is True or d['chankan'] is False)))) and ('chankan_ankan' not in d or (((d['chankan_ankan'] is True or d['chankan_ankan'] is False)))) and ('tenhou' not in d or (((d['tenhou'] is True or d['tenhou'] is False)))) and ('chiihou' not in d or (((d['chiihou'] is True or d['chiihou'] is False)))) and ('renhou' not in d or (((d['renhou'] is True or d['renhou'] is False)))) and ('compare' not in d or (((type(d['compare']) is list and len(d['compare']) >= 1 and len(d['compare']) <= 14 and all(((type(x4) is str and x4 in _k9) and ((type(x4) is str))) for x4 in d['compare'])) or d['compare'] is None)))))


def _o1(d: dict[Any, Any]) -> bool:
    return bool((type(d) is dict and 'type' in d and 'tiles' in d and ('type' not in d or ((type(d['type']) is str and d['type'] in _k2) and ((type(d['type']) is str)))) and ('tiles' not in d or (((type(d['tiles']) is str and (d['tiles'] in _k1_good or _k1_learn(d['tiles']))))))))


def _o2(d: dict[Any, Any]) -> bool:
    return bool((type(d) is dict and _k8.issuperset(d)))


def score_request(v: Any) -> bool:
    return bool((((type(v) is dict and _o0(v)))))
