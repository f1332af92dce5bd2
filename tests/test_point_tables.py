"""Every cell of the scoring tables in the rule texts (Saikouisen art. 47, WRR, EMA)."""
from pathlib import Path

import pytest

from scoring.points import base_points, hand_payments
from scoring.rules import PRESETS

TABLES = Path(__file__).parent / "data" / "point_tables.txt"


def _cells():
    for line in TABLES.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, cells = line.split(":")
        table, winner, how, han = head.split()
        for cell in cells.split():
            fu, value = cell.split("=")
            yield pytest.param(table, winner, how, han, fu, value, id=f"{table}-{winner}-{how}-{han}h-{fu}")


def _base(rules, han: str, fu: str) -> int:
    if han.startswith("Y"):
        return 8000 * int(han[1:])
    base, _ = base_points(int(han), 30 if fu == "any" else int(fu), kiriage=rules.kiriage, kazoe=rules.kazoe_yakuman)
    return base


@pytest.mark.parametrize("table,winner,how,han,fu,value", list(_cells()))
def test_table_cell(table, winner, how, han, fu, value):
    rules = PRESETS[table]
    dealer = winner == "dealer"
    pays = hand_payments(_base(rules, han, fu), dealer=dealer, tsumo=how == "tsumo")
    if how == "ron":
        assert pays == {"ron": int(value)}
    elif dealer:
        assert pays == {"non_dealer": int(value)}
    else:
        non_dealer, from_dealer = value.split("/")
        assert pays == {"non_dealer": int(non_dealer), "dealer": int(from_dealer)}


def test_every_table_has_cells():
    cells = list(_cells())
    assert len(cells) > 250
    assert {c.values[0] for c in cells} == {"saikouisen", "wrr", "ema"}
