"""One kind of refusal for the whole app: :class:`Refusal` names the request field that was wrong,
the kind of failure (:data:`KINDS`) and the reason as a stable ``detail``: an id from
:data:`DETAILS` and its parameters. The words are only in the catalogues (static/i18n/en.json,
ja.json, key ``detail.<id>``, {placeholders} the parameter names listed here): the English
``message`` an API client reads is the English catalogue's sentence. No HTTP status here: the
web layer maps each kind to its status (web/errors.py)."""
from __future__ import annotations

import json
from pathlib import Path
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
    "request_object": (),
    "melds_list": (),
    "wind": (),
    "meld_object": (),
    "notation_unreadable": (),
    "win_kind": (),
    "rule_fixed": (),
    "rules_object": (),
    "not_list": (),
    "unknown_values": ('values', 'choices'),
    "uma_four": ('max',),
    "uma_by_positive": (),
    "change_op": ('ops',),
    "no_such_hand": ('index', 'count'),
    "table_json": (),
    "nothing_to_undo": (),
    "seat_number": (),
    "seat_list": (),
    "seat_list_long": ('count',),
    "seat_list_twice": (),
    "computed_field": ('key',),
    "unknown_field": ('key', 'allowed'),
    "hand_value": (),
    "riichi_points": ('seat', 'points', 'needed'),
    "yakuman_count": ('max',),
    "han_range": ('max',),
    "fu_value": (),
    "fu_25": (),
    "fu_20_ron": (),
    "score_request_object": (),
    "filled_by_table": (),
    "table_ruleset": ('name',),
    "table_rules": (),
    "riichi_mismatch": ('seat',),
    "pao_winner": (),
    "pao_none": (),
    "pao_yaku": ('yaku',),
    "pao_yakuman_needed": ("yakuman",),
    "winners_list": (),
    "head_bump": (),
    "three_ron_abort": (),
    "ron_winners": ('max',),
    "winner_object": (),
    "winner_discarder": (),
    "seat_listed_twice": ('seat',),
    "noten_riichi": ('seat',),
    "nagashi_none": (),
    "abort_kind": ('allowed',),
    "four_riichi": (),
    "hand_object": (),
    "game_over": (),
    "penalties_list": (),
    "penalties_count": ('max',),
    "penalty_object": (),
    "penalty_points": ('max',),
    "text_length": ('max',),
    "player_name_missing": ('number',),
    "name_length": ('max',),
    "name_characters": (),
    "name_taken": ('name', 'number'),
    "if_match": (),
    "idempotency_key": ('max',),
    "idempotency_key_reused": (),
    "body_object": (),
    "id_allocation": (),
    "no_table": (),
    "next_game_exists": (),
    "finish_game_first": (),
    "hand_size": ('max', 'size'),
    "table_changed": ('seen', 'now'),
    "log_full": ('max',),
    "hands_full": ('max',),
    "changed_same_moment": (),
    "edit_token_missing": (),
    "edit_token_wrong": (),
    "export_format": (),
    "table_id_characters": (),
    "event_players_count": ('min', 'max', 'count'),
    "event_settings": (),
    "unknown_setting": ('key',),
    "no_event": (),
    "organiser_token_missing": (),
    "organiser_token_wrong": (),
    "event_changed": (),
    "event_changed_since": ("seen", "now"),
    "players_not_removed": ('count',),
    "event_field": ('key',),
    "player_numbers": (),
    "player_numbers_range": ('max',),
    "rounds_count": ('max',),
    "round_seated": ("n",),
    "round_next": ("next",),
    "rounds_planned_seated": ("planned",),
    "table_players": (),
    "table_no_member": (),
    "excluded_flag": (),
    "no_event_game": (),
    "labels_json": (),
    "labels_object": (),
    "labels_boxes": (),
    "labels_no_tiles": (),
    "labels_too_many": ('max', 'count'),
    "box_object": (),
    "box_tile": (),
    "box_not_tile": (),
    "box_corners": (),
    "box_finite": (),
    "box_order": (),
    "image_size_pair": (),
    "labels_size": ('width', 'height'),
    "box_outside": ('number',),
    "photo_empty": (),
    "photo_bytes": ('max',),
    "photo_pixels": (),
    "photo_unreadable": (),
    "photo_tiny": (),
    "photos_no_room": (),
    "no_photo": (),
    "delete_token_missing": (),
    "delete_token_wrong": (),
    "round_players": ('count',),
    "upload_multipart": (),
    "upload_image_field": (),
    "upload_labels_field": (),
    "recognition_unavailable": (),
    "no_model": (),
    "index_number": (),
    "body_json_type": (),
    "body_depth": ('max',),
    "body_size": ('max',),
    "body_json": (),
    "players_list": (),
    "table_players_count": ('count',),
    "event_name": (),
    "event_games_full": ('max', 'count'),
    "if_match_required": (),
    "event_if_match_required": (),
    "next_game_organiser": (),
    # the photo's proposed hand (recognition, not an error: a note on the proposal)
    "photo_breaks_rules": (),
    "photo_not_complete": (),
    "photo_tile_count": ("count",),
    "photo_no_tiles": (),
    "photo_out_of_focus": (),
    # the server (web/errors.py): its storage cannot be reached or written just now
    "storage_unavailable": (),
    # the web layer's own refusals (web/errors.py, web/bodies.py, web/limits.py): the request as
    # sent, before any of it is read as a hand, a table or a photo
    "rate_limited": ("seconds",),
    "codes_rate_limited": ("seconds",),
    "photo_busy": ("seconds",),
    "uploads_at_once": ("max",),
    "body_too_large": ("max",),
    "body_timeout": (),
    "body_cut": (),
    "request_unreadable": (),
    "no_route": (),
    "method_not_allowed": ("method",),
    "media_type": (),
    "request_refused": ("http",),
    "internal_error": (),
    "events_since": (),
}


def detail(detail_id: str, **params: Any) -> dict[str, Any]:
    """``{"id", "params"}`` for one of :data:`DETAILS`, checked against its parameter names."""
    expected = DETAILS[detail_id]
    if set(params) != set(expected):
        raise KeyError(f"detail {detail_id!r} takes {expected}, got {tuple(params)}")
    return {"id": detail_id, "params": params}



#: The kinds of refusal: why the request cannot be done, independent of any transport. The web layer
#: maps each to an HTTP status (web/errors.py STATUS) and sends it as the error's ``code``.
KINDS: tuple[str, ...] = (
    "malformed",               # the request cannot be read as what it should be
    "impossible",              # it can be read but cannot happen (a hand with no yaku, a name too long)
    "not_found",               # what it names does not exist
    "conflict",                # someone else changed it first
    "too_large",               # over a size limit
    "unsupported_media_type",  # not a kind of content the server reads
    "token_missing",           # needs a token it was not given
    "token_wrong",             # the token belongs to something else
    "unavailable",             # the server cannot do it just now (or at all)
    "no_room",                 # the server has no room to keep it
    "precondition_required",   # a change needs the version it was made on (If-Match)
)

_CATALOGUE = Path(__file__).resolve().parents[1] / "static" / "i18n" / "en.json"
_english: dict[str, str] | None = None


def english(detail_id: str, params: dict[str, Any]) -> str:
    """The English catalogue's sentence for a detail (where the catalogue is not shipped, as in the
    offline engine, the id and parameters: the app words them from its own catalogue)."""
    global _english
    if _english is None:
        try:
            _english = json.loads(_CATALOGUE.read_text(encoding="utf-8"))
        except OSError:
            _english = {}
    words = _english.get(f"detail.{detail_id}")
    if words is None:
        return f"{detail_id} {params}" if params else detail_id
    for name, value in params.items():
        if name == "seat":  # a seat is read as the player in it ("refusal.seat"; the app shows the name)
            value = _english.get("refusal.seat", "{n}").replace("{n}", str(value))
        words = words.replace("{" + name + "}", str(value))
    return words[:1].upper() + words[1:]  # a sentence may start with a value ("{seat} declared riichi...")


_R = TypeVar("_R", bound="Refusal")


class Refusal(ValueError):
    """A request refused: the ``field`` at fault, the ``kind`` of failure and the ``detail`` reason.

    ``hand`` is the table hand (from 0) a refusal of a table's log is about, shown as its own field
    rather than inside the sentence."""

    default_kind = "impossible"

    def __init__(self, field: str | None, kind: str | None, detail_id: str, /, **params: Any) -> None:
        kind = kind or self.default_kind
        if kind not in KINDS:
            raise KeyError(f"unknown refusal kind {kind!r}")
        self.field = field
        self.kind = kind
        self.detail: dict[str, Any] = detail(detail_id, **params)
        self.hand: int | None = None
        super().__init__(self.message)

    @property
    def message(self) -> str:
        return english(self.detail["id"], self.detail["params"])

    def moved(self, cls: type[_R], field: str | None) -> _R:
        """This refusal as ``cls`` at another field (a score request inside a table's hand), its reason kept."""
        new = cls(field, self.kind, self.detail["id"], **self.detail["params"])
        new.hand = self.hand
        return new

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"field": self.field, "message": self.message, "code": self.kind, "detail": self.detail}
        if self.hand is not None:
            out["hand"] = self.hand
        return out


class ScoringError(Refusal):
    """A request that cannot be scored."""


class NotationError(ScoringError):
    """Tile notation that cannot be read."""

    default_kind = "malformed"
