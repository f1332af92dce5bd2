"""Whole games for every preset, with the scores worked out by hand from the rule texts
(tests/test_ledger_games.py plays them through the ledger, test_api_tables.py and test_board.py
through the API and the board).

Each step is (hand, scores after it, riichi sticks on the table, honba, where play goes next),
where "next" is (round wind, hand number, dealer seat), or "end". Comments show the arithmetic.
FINALS: each game's final standings.
"""
from __future__ import annotations

from ledger_helpers import W, draw, hf, ron, tsumo, ym

GAMES = {
    "wrr": [
        # E1 dealer 0: seat 0 rons seat 2, 2 han 30 fu dealer = 2900; seat 1's riichi stick to the winner
        (ron(2, W(0, hf(2, 30)), riichi=[1]), [33900, 29000, 27100, 30000], 0, 1, ("east", 1, 0)),
        # E1-1: seat 3 tsumo 1 han 30 fu 300/500 + 100 each
        (tsumo(3, hf(1, 30)), [33300, 28600, 26700, 31400], 0, 0, ("east", 2, 1)),
        # E2: only the dealer tenpai: 1000 from each noten player
        (draw(tenpai=[1]), [32300, 31600, 25700, 30400], 0, 1, ("east", 2, 1)),
        # E2-1: seats 0 and 2 tenpai (2 in riichi): 1500 from each of 1 and 3; the dealer rotates
        (draw(tenpai=[0, 2], riichi=[2]), [33800, 30100, 26200, 28900], 1, 2, ("east", 3, 2)),
        # chombo: 20-point penalty off the final score, no table payment, re-deal (WRR 7.1)
        ({"result": "chombo", "seat": 3}, [33800, 30100, 26200, 28900], 1, 2, ("east", 3, 2)),
        # E3-2: seat 3 rons seat 0, 4 han 30 fu = 7700 (no kiriage) + 600 honba + the stick
        (ron(0, W(3, hf(4, 30))), [25500, 30100, 26200, 38200], 0, 0, ("east", 4, 3)),
        # E4: dealer 3 tsumo yakuman: 16000 all
        (tsumo(3, ym()), [9500, 14100, 10200, 86200], 0, 1, ("east", 4, 3)),
        # E4-1: seat 1 rons the dealer, mangan 8000 + 300
        (ron(3, W(1, hf(5, 30))), [9500, 22400, 10200, 77900], 0, 0, ("south", 1, 0)),
        (draw(), [9500, 22400, 10200, 77900], 0, 1, ("south", 2, 1)),
        (draw(tenpai=[0, 1, 2, 3]), [9500, 22400, 10200, 77900], 0, 2, ("south", 2, 1)),
        # S2-2: seat 0 rons seat 2, 1 han 40 fu = 1300 + 600
        (ron(2, W(0, hf(1, 40))), [11400, 22400, 8300, 77900], 0, 0, ("south", 3, 2)),
        # S3: seat 0 tsumo 3 han 30 fu 1000/2000
        (tsumo(0, hf(3, 30)), [15400, 21400, 6300, 76900], 0, 0, ("south", 4, 3)),
        # S4: seat 1 riichi and alone tenpai; the dealer is noten: the game ends, the stick stays on the table
        (draw(tenpai=[1], riichi=[1]), [14400, 23400, 5300, 75900], 1, 1, "end"),
    ],
    "ema": [
        # E1 dealer 0: double ron from seat 1: seat 2 3900, seat 3 2600. Riichi by 0 and 2: seat 2 (a winner)
        # gets its own bet back, seat 0's goes to the winner closest to the discarder's right (seat 2)
        (ron(1, W(2, hf(3, 30)), W(3, hf(2, 40)), riichi=[2, 0]), [29000, 23500, 34900, 32600], 0, 0, ("east", 2, 1)),
        # E2: abortive draw (four winds): a counter, the dealer stays (3.4.10)
        ({"result": "abort", "kind": "four_winds"}, [29000, 23500, 34900, 32600], 0, 1, ("east", 2, 1)),
        # chombo by non-dealer 3: mangan, 4000 to East and 2000 to the others (3.4.6)
        ({"result": "chombo", "seat": 3}, [31000, 27500, 36900, 24600], 0, 1, ("east", 2, 1)),
        # E2-1: nagashi mangan by seat 0: 4000 from the dealer, 2000 from others, +100 counter each
        (draw(nagashi=[0]), [39300, 23400, 34800, 22500], 0, 2, ("east", 3, 2)),
        # E3-2: dealer 2 tsumo riichi pinfu (3 han 20 fu): 1300 all + 200 each + own stick back
        (tsumo(2, {"hand": {"hand": "123m456p789s234m55p", "win_tile": "4m", "riichi": True}}, riichi=[2]),
         [37800, 21900, 39300, 21000], 0, 3, ("east", 3, 2)),
        # E3-3: seat 1 rons seat 3, 4 han 30 fu = 7700 + 900
        (ron(3, W(1, hf(4, 30))), [37800, 30500, 39300, 12400], 0, 0, ("east", 4, 3)),
        # E4: seat 0 tsumo daisangen; seat 1 fed the third dragon and pays it all (32000)
        (tsumo(0, ym(), pao=1), [69800, -1500, 39300, 12400], 0, 0, ("south", 1, 0)),
        # S1: dealer 0 rons seat 2 with daisuushii (two yakuman in EMA), seat 3 liable: 96000 split
        (ron(2, W(0, ym(2, pao_yakuman=2), 3)), [165800, -1500, -8700, -35600], 0, 1, ("south", 1, 0)),
        (draw(tenpai=[0]), [168800, -2500, -9700, -36600], 0, 2, ("south", 1, 0)),
        # S1-2: seat 1 (in riichi, below zero: allowed) rons the dealer, 1000 + 600
        (ron(0, W(1, hf(1, 30)), riichi=[1]), [167200, -900, -9700, -36600], 0, 0, ("south", 2, 1)),
        (draw(tenpai=[1], riichi=[1]), [166200, 1100, -10700, -37600], 1, 1, ("south", 2, 1)),
        ({"result": "abort", "kind": "nine_terminals"}, [166200, 1100, -10700, -37600], 1, 2, ("south", 2, 1)),
        # S2-2: seat 3 rons seat 2, 1000 + 600 and the stick
        (ron(2, W(3, hf(1, 30))), [166200, 1100, -12300, -35000], 0, 0, ("south", 3, 2)),
        (draw(), [166200, 1100, -12300, -35000], 0, 1, ("south", 4, 3)),
        # S4-1: seat 0 riichi and tenpai alone; dealer noten ends the game; the stick goes to the winner (3.6)
        (draw(tenpai=[0], riichi=[0]), [168200, 100, -13300, -36000], 1, 2, "end"),
    ],
    "jpml": [
        # E1: seat 2 rons seat 1, 2 han 40 fu = 2600, collects both riichi sticks
        (ron(1, W(2, hf(2, 40)), riichi=[2, 3]), [30000, 27400, 33600, 29000], 0, 0, ("east", 2, 1)),
        # E2: seat 3 tsumo suukantsu; seat 0 fed the fourth kan and pays all (JPML yakuman pao)
        (tsumo(3, ym(), pao=0), [-2000, 27400, 33600, 61000], 0, 0, ("east", 3, 2)),
        # E3: seat 0 rons seat 1 with daisangen, seat 2 liable for half: 16000 + 16000
        (ron(1, W(0, ym(), 2)), [30000, 11400, 17600, 61000], 0, 0, ("east", 4, 3)),
        (draw(tenpai=[3]), [29000, 10400, 16600, 64000], 0, 1, ("east", 4, 3)),
        (draw(), [29000, 10400, 16600, 64000], 0, 2, ("south", 1, 0)),
        # S1-2: daisuushii ron, seat 2 liable for half; the discarder pays all the honba (600)
        (ron(3, W(1, ym(), 2)), [29000, 43000, 600, 47400], 0, 0, ("south", 2, 1)),
        # chombo: league practice, a 20-point penalty
        ({"result": "chombo", "seat": 2}, [29000, 43000, 600, 47400], 0, 0, ("south", 2, 1)),
        # S2: dealer 1 tsumo 3 han 30 fu = 2000 all, takes both sticks
        (tsumo(1, hf(3, 30), riichi=[1, 0]), [26000, 50000, -1400, 45400], 0, 1, ("south", 2, 1)),
        (draw(tenpai=[0], riichi=[0]), [28000, 49000, -2400, 44400], 1, 2, ("south", 3, 2)),
        (ron(0, W(3, hf(1, 30))), [26400, 49000, -2400, 47000], 0, 0, ("south", 4, 3)),
        # S4: dealer noten, game over; the riichi stick is lost (riichi 4)
        (draw(tenpai=[2], riichi=[2]), [25400, 48000, -400, 46000], 1, 1, "end"),
    ],
    "saikouisen": [
        # kiriage (art. 47): 4 han 30 fu and 3 han 60 fu are mangan
        (ron(3, W(1, hf(4, 30))), [30000, 38000, 30000, 22000], 0, 0, ("east", 2, 1)),
        (ron(0, W(1, hf(3, 60))), [18000, 50000, 30000, 22000], 0, 1, ("east", 2, 1)),
        (tsumo(2, hf(4, 30)), [15900, 45900, 38300, 19900], 0, 0, ("east", 3, 2)),
        (draw(), [15900, 45900, 38300, 19900], 0, 1, ("east", 4, 3)),
        (draw(), [15900, 45900, 38300, 19900], 0, 2, ("south", 1, 0)),
        (draw(), [15900, 45900, 38300, 19900], 0, 3, ("south", 2, 1)),
        (draw(), [15900, 45900, 38300, 19900], 0, 4, ("south", 3, 2)),
        (ron(0, W(3, hf(2, 30))), [12700, 45900, 38300, 23100], 0, 0, ("south", 4, 3)),
        # S4: the stick stays on the table (art. 39.12)
        (draw(tenpai=[0], riichi=[0]), [14700, 44900, 37300, 22100], 1, 1, "end"),
    ],
    "general": [
        (ron(1, W(0, hf(3, 40))), [32700, 17300, 25000, 25000], 0, 1, ("east", 1, 0)),
        # chombo by the dealer: 4000 to each (mangan payment)
        ({"result": "chombo", "seat": 0}, [20700, 21300, 29000, 29000], 0, 1, ("east", 1, 0)),
        (tsumo(2, hf(2, 30)), [19600, 20700, 31300, 28400], 0, 0, ("east", 2, 1)),
        # hakoten: seat 1 below zero ends the game at once
        (ron(1, W(3, ym())), [19600, -11300, 31300, 60400], 0, 0, "end"),
    ],
    "tenhou": [
        # E1: double ron from seat 3: the winner closest to the discarder (seat 1) takes the sticks
        (ron(3, W(1, hf(2, 30)), W(2, hf(1, 40)), riichi=[2, 0]), [24000, 29000, 25300, 21700], 0, 0, ("east", 2, 1)),
        ({"result": "abort", "kind": "triple_ron"}, [24000, 29000, 25300, 21700], 0, 1, ("east", 2, 1)),
        # E2-1: nagashi mangan by seat 3 replaces tenpai payments; no honba collected
        (draw(tenpai=[1], nagashi=[3]), [22000, 25000, 23300, 29700], 0, 2, ("east", 2, 1)),
        # E2-2: double ron from seat 2; honba only to the closest winner (seat 3)
        (ron(2, W(1, hf(2, 30)), W(3, hf(1, 30))), [22000, 27900, 18800, 31300], 0, 3, ("east", 2, 1)),
        # E2-3: daisangen tsumo, seat 2 liable: pays 32000 and all the honba (3 x 300); busts
        (tsumo(0, ym(), pao=2), [54900, 27900, -14100, 31300], 0, 0, "end"),
    ],
    "mahjongsoul": [
        # E1: triple ron from seat 0, each 1000; the stick goes to the closest winner (seat 1)
        (ron(0, W(1, hf(1, 30)), W(2, hf(1, 30)), W(3, hf(1, 30)), riichi=[3]), [22000, 27000, 26000, 25000], 0, 0, ("east", 2, 1)),
        # E2: seat 0 tsumo a double yakuman: 32000 from the dealer, 16000 from each other; seat 1 busts
        (tsumo(0, ym(2)), [86000, -5000, 10000, 9000], 0, 0, "end"),
    ],
}


FINALS = {
    # seat: (place, final in thousands)
    "wrr": {3: (1, 40.9), 1: (2, -1.6), 0: (3, -20.6), 2: (4, -39.7)},
    "ema": {0: (1, 148.2), 1: (2, -26.9), 2: (3, -46.3), 3: (4, -75)},
    "jpml": {1: (1, 26), 3: (2, 20), 0: (3, -8.6), 2: (4, -58.4)},
    "saikouisen": {1: (1, 44.9), 2: (2, 17.3), 3: (3, -17.9), 0: (4, -45.3)},
    "general": {3: (1, 80.4), 2: (2, 11.3), 0: (3, -20.4), 1: (4, -71.3)},
    "tenhou": {0: (1, 65), 3: (2, 11), 1: (3, -12), 2: (4, -64)},
    "mahjongsoul": {0: (1, 76), 2: (2, -10), 3: (3, -21), 1: (4, -45)},
}
