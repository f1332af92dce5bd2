"""Generated from scoring/contract.py by ``python -m scoring.contract``: do not edit (tests/test_contract.py
checks it is up to date). The quick tests of scoring/schema.py.accepts, compiled with the scoring core."""
# ruff: noqa
from __future__ import annotations

import re
from typing import Any

_k0 = re.compile('^[ ,]*(?:(?:[0-9]+[mps]|[1-7]+z)[ ,]*)*\\Z')
_k0_good: set[str] = set()


def _k0_learn(text: str) -> bool:
    if _k0.search(text) is None:
        return False
    if len(_k0_good) < 50_000:
        _k0_good.add(text)
    return True

_k1 = frozenset(['ankan', 'chi', 'daiminkan', 'kakan', 'pon'])
_k2 = frozenset(['ron', 'tsumo'])
_k3 = re.compile('^(?:[ ,]*(?:[0-9][mps]|[1-7]z)[ ,]*)?\\Z')
_k3_good: set[str] = set()


def _k3_learn(text: str) -> bool:
    if _k3.search(text) is None:
        return False
    if len(_k3_good) < 50_000:
        _k3_good.add(text)
    return True

_k4 = frozenset(['east', 'north', 'south', 'west'])
_k5 = frozenset(['east', 'north', 'south', 'west'])
_k6 = frozenset(['ema', 'general', 'jpml', 'mahjongsoul', 'saikouisen', 'tenhou', 'wrr'])
_k7 = frozenset(['abortive_draws', 'agari_yame', 'bust_ends_game', 'chankan_ankan_kokushi', 'chombo', 'chombo_penalty', 'dealer_repeat_on_abort', 'double_riichi_han', 'double_wind_pair_fu', 'double_yakuman', 'extension_target', 'final_rounding', 'game_length', 'haitei_with_rinshan', 'honba_ron', 'honba_tsumo', 'ippatsu', 'kan_dora', 'kan_ura_dora', 'kazoe_yakuman', 'kiriage', 'leftover_sticks', 'max_ron_winners', 'max_yakuman', 'multi_ron_honba', 'multi_ron_sticks', 'nagashi_collects', 'nagashi_mangan', 'noten_total', 'open_tanyao', 'pao_ron_honba', 'pao_scope', 'pao_yaku', 'ranking_tie_break', 'red_fives', 'renhou', 'renhou_han', 'return_points', 'riichi_needs_points', 'riichi_stick', 'rinshan_tsumo_fu', 'ryuuiisou_needs_hatsu', 'start_points', 'tenpai_yame', 'tie_break', 'two_yaku_minimum_honba', 'uma', 'uma_by_positive', 'ura_dora', 'yakuman_stacking'])
_k8 = frozenset(['ema', 'general', 'jpml', 'mahjongsoul', 'saikouisen', 'tenhou', 'wrr'])


def score_request(v: Any) -> bool:
    return bool((((type(v) is dict and 'hand' in v and ('hand' not in v or (((type(v['hand']) is str and (v['hand'] in _k0_good or _k0_learn(v['hand'])))))) and ('melds' not in v or (((type(v['melds']) is list and len(v['melds']) <= 4 and all((((type(x1) is dict and 'type' in x1 and 'tiles' in x1 and ('type' not in x1 or ((type(x1['type']) is str and x1['type'] in _k1) and ((type(x1['type']) is str)))) and ('tiles' not in x1 or (((type(x1['tiles']) is str and (x1['tiles'] in _k0_good or _k0_learn(x1['tiles']))))))))) for x1 in v['melds'])) or v['melds'] is None))) and ('win' not in v or ((type(v['win']) is str and v['win'] in _k2) and ((type(v['win']) is str)))) and ('win_tile' not in v or (((type(v['win_tile']) is str and (v['win_tile'] in _k3_good or _k3_learn(v['win_tile']))) or v['win_tile'] is None))) and ('seat_wind' not in v or ((type(v['seat_wind']) is str and v['seat_wind'] in _k4) and ((type(v['seat_wind']) is str)))) and ('round_wind' not in v or ((type(v['round_wind']) is str and v['round_wind'] in _k5) and ((type(v['round_wind']) is str)))) and ('dora_indicators' not in v or (((type(v['dora_indicators']) is str and (v['dora_indicators'] in _k0_good or _k0_learn(v['dora_indicators']))) or (type(v['dora_indicators']) is list and all((((type(x2) is str and (x2 in _k0_good or _k0_learn(x2))))) for x2 in v['dora_indicators'])) or v['dora_indicators'] is None))) and ('ura_indicators' not in v or (((type(v['ura_indicators']) is str and (v['ura_indicators'] in _k0_good or _k0_learn(v['ura_indicators']))) or (type(v['ura_indicators']) is list and all((((type(x3) is str and (x3 in _k0_good or _k0_learn(x3))))) for x3 in v['ura_indicators'])) or v['ura_indicators'] is None))) and ('dora_count' not in v or (((type(v['dora_count']) is int and v['dora_count'] >= 0 and v['dora_count'] <= 40)))) and ('honba' not in v or (((type(v['honba']) is int and v['honba'] >= 0 and v['honba'] <= 999)))) and ('riichi_sticks' not in v or (((type(v['riichi_sticks']) is int and v['riichi_sticks'] >= 0 and v['riichi_sticks'] <= 999)))) and ('ruleset' not in v or ((type(v['ruleset']) is str and v['ruleset'] in _k6) and ((type(v['ruleset']) is str)))) and ('rules' not in v or (((type(v['rules']) is dict and _k7.issuperset(v['rules'])) or v['rules'] is None))) and ('riichi' not in v or (((v['riichi'] is True or v['riichi'] is False)))) and ('double_riichi' not in v or (((v['double_riichi'] is True or v['double_riichi'] is False)))) and ('ippatsu' not in v or (((v['ippatsu'] is True or v['ippatsu'] is False)))) and ('haitei' not in v or (((v['haitei'] is True or v['haitei'] is False)))) and ('houtei' not in v or (((v['houtei'] is True or v['houtei'] is False)))) and ('rinshan' not in v or (((v['rinshan'] is True or v['rinshan'] is False)))) and ('chankan' not in v or (((v['chankan'] is True or v['chankan'] is False)))) and ('chankan_ankan' not in v or (((v['chankan_ankan'] is True or v['chankan_ankan'] is False)))) and ('tenhou' not in v or (((v['tenhou'] is True or v['tenhou'] is False)))) and ('chiihou' not in v or (((v['chiihou'] is True or v['chiihou'] is False)))) and ('renhou' not in v or (((v['renhou'] is True or v['renhou'] is False)))) and ('compare' not in v or (((type(v['compare']) is list and len(v['compare']) >= 1 and len(v['compare']) <= 14 and all(((type(x4) is str and x4 in _k8) and ((type(x4) is str))) for x4 in v['compare'])) or v['compare'] is None)))))))
