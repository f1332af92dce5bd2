"""Errors the scoring engine raises: each names the request field that was wrong.

Beside the English ``message`` an error a player can meet carries a stable ``detail``: an id from
:data:`DETAILS` and its parameters, so an app can word the reason in the player's language
(the catalogue key is ``detail.<id>``, its {placeholders} are the parameter names listed here)."""
from __future__ import annotations

from typing import Any, TypeVar

# Every detail id the server produces, with the names of its parameters. The app's catalogues
# (static/i18n/en.json, ja.json) word each as "detail.<id>"; a test keeps the three in step.
DETAILS: dict[str, tuple[str, ...]] = {
    # the hand itself
    "no_yaku": (),
    "no_yaku_two_han": ("honba",),
    "not_complete": (),
    "not_complete_melds": ("melds",),
    "tile_count": ("count", "expected", "melds"),
    "wait_tile_count": ("count", "expected", "melds"),
    "hand_empty": (),
    "hand_missing": (),
    "too_many_copies": ("tiles",),
    "two_red_fives": ("suit",),
    "win_tile_missing": ("tile",),
    "win_tile_one": (),
    "too_many_melds": ("count",),
    "meld_chi": (),
    "meld_same": ("size",),
    "meld_type": (),
    "too_many_dora_indicators": ("count",),
    "too_many_ura_indicators": (),
    # notation that cannot be read
    "notation_suit_without_digits": ("letter", "position"),
    "notation_bad_honour": ("tile", "position"),
    "notation_digits_without_suit": ("position",),
    "notation_unknown_character": ("character", "position"),
    "notation_trailing_digit": ("digit",),
    "notation_type": (),
    "notation_one_tile": (),
    # the situation of the win
    "riichi_closed": (),
    "ippatsu_needs_riichi": (),
    "haitei_tsumo": (),
    "houtei_ron": (),
    "rinshan_tsumo": (),
    "rinshan_needs_kan": (),
    "rinshan_ippatsu": (),
    "chankan_ankan_never": (),
    "chankan_ankan_kokushi": (),
    "chankan_ron": (),
    "chankan_houtei": (),
    "chankan_one_copy": (),
    "chankan_copies": ("tile",),
    "special_no_melds": ("yaku",),
    "special_tsumo": ("yaku",),
    "special_ron": ("yaku",),
    "special_dealer": ("yaku",),
    "special_non_dealer": ("yaku",),
    "special_clash": ("yaku", "others"),
    # numbers and choices
    "not_whole_number": (),
    "negative": (),
    "at_most": ("max",),
    "not_true_false": (),
    "range": ("min", "max"),
    "multiple_of": ("step",),
    "choice": ("choices",),
    "unknown_ruleset": ("name",),
    "unknown_rule": ("name",),
    # Other rule sets
    "compare_list": (),
    "compare_too_many": ("max",),
    "compare_unknown": ("name",),
    # the photo's proposed hand (recognition, not an error: a note on the proposal)
    "photo_breaks_rules": (),
    "photo_not_complete": (),
    "photo_tile_count": ("count",),
    "photo_no_tiles": (),
    # the server (web/errors.py): its storage cannot be reached or written just now
    "storage_unavailable": (),
}


def detail(detail_id: str, **params: Any) -> dict[str, Any]:
    """``{"id", "params"}`` for one of :data:`DETAILS`, checked against its parameter names."""
    expected = DETAILS[detail_id]
    if set(params) != set(expected):
        raise KeyError(f"detail {detail_id!r} takes {expected}, got {tuple(params)}")
    return {"id": detail_id, "params": params}


_E = TypeVar("_E", bound="ScoringError")


class ScoringError(ValueError):
    """A request that cannot be scored. ``status`` is 400 when malformed, 422 when impossible."""

    def __init__(self, field: str | None, message: str, status: int = 422, detail_id: str | None = None,
                 **params: Any) -> None:
        super().__init__(message)
        self.field = field
        self.message = message
        self.status = status
        self.detail: dict[str, Any] | None = detail(detail_id, **params) if detail_id else None

    def moved(self, cls: type[_E], field: str | None, message: str | None = None) -> _E:
        """This error as ``cls`` at another field (a score request inside a table's hand), its detail kept."""
        new = cls(field, self.message if message is None else message, self.status)
        new.detail = self.detail
        return new

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        return out


class NotationError(ScoringError):
    """Tile notation that cannot be read (HTTP 400)."""

    def __init__(self, message: str, field: str = "hand", detail_id: str | None = None, **params: Any) -> None:
        super().__init__(field, message, 400, detail_id, **params)
