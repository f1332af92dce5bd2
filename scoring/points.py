"""From han and fu to base points, limit names and what each payer pays.

>>> base_points(4, 30, kiriage=False), base_points(4, 30, kiriage=True)
((1920, None), (2000, 'mangan'))
>>> hand_payments(1920, dealer=False, tsumo=False)
{'ron': 7700}
>>> hand_payments(1920, dealer=False, tsumo=True)
{'dealer': 3900, 'non_dealer': 2000}
"""
from __future__ import annotations

MANGAN = 2000
LIMITS = (  # (lowest han, base, name)
    (13, 8000, "yakuman"),
    (11, 6000, "sanbaiman"),
    (8, 4000, "baiman"),
    (6, 3000, "haneman"),
    (5, 2000, "mangan"),
)


def round_up_100(x: int) -> int:
    return -(-x // 100) * 100


def base_points(han: int, fu: int, *, kiriage: bool = False, kazoe: bool = False) -> tuple[int, str | None]:
    """Base points and limit name for a hand without yakuman."""
    if han >= 13 and not kazoe:
        return 6000, "sanbaiman"
    for lowest, base, name in LIMITS:
        if han >= lowest:
            return base, name
    base = fu * 2 ** (han + 2)
    if base >= MANGAN or (kiriage and base == 1920):
        return MANGAN, "mangan"
    return base, None


def hand_payments(base: int, *, dealer: bool, tsumo: bool) -> dict[str, int]:
    """What each payer pays for a hand's base points (no honba)."""
    if not tsumo:
        return {"ron": round_up_100(base * (6 if dealer else 4))}
    if dealer:
        return {"non_dealer": round_up_100(base * 2)}
    return {"dealer": round_up_100(base * 2), "non_dealer": round_up_100(base)}


def payment_total(payments: dict[str, int], dealer: bool) -> int:
    """The sum the payers pay for ``payments`` (three payers on tsumo)."""
    if "ron" in payments:
        return payments["ron"]
    if dealer:
        return 3 * payments["non_dealer"]
    return payments["dealer"] + 2 * payments["non_dealer"]


def with_honba(payments: dict[str, int], honba: int, *, ron_value: int = 300, tsumo_value: int = 100) -> dict[str, int]:
    """Payments with the continuance counters added (300 on ron, 100 from each payer on tsumo)."""
    if "ron" in payments:
        return {"ron": payments["ron"] + ron_value * honba}
    return {k: v + tsumo_value * honba for k, v in payments.items()}
