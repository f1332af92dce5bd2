"""Contributed corrections: photos players chose to share, with the tiles as they confirmed them.

One contribution is two files in a folder (``instance/contributions`` unless configured): the
photo, re-encoded from its decoded upright pixels so no EXIF, GPS or XMP block survives, and a
JSON sidecar with the labels and the hash of the contributor's delete token. Each file is written
to a temporary name and renamed into place, and the sidecar is written last: a contribution exists
exactly when its sidecar does, so a crash never leaves a half record (a photo without a sidecar is
swept away later). Caps on the photo's size and on the folder's count and bytes are checked under
a lock file, so two app processes cannot both take the last place.

No Flask here: the web layer (web/contributions.py) and the operator's command
(``python -m training.corrections``) share this module.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import io
import json
import os
import re
import secrets
import tempfile
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from PIL import Image

from scoring.errors import Refusal

try:  # HEIC/HEIF from iPhones, when the optional package is installed (as in image_io)
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - depends on the environment
    pass

fcntl: ModuleType | None
try:
    import fcntl
except ImportError:  # pragma: no cover - not on Debian
    fcntl = None

DEFAULT_DIR = Path(__file__).resolve().parents[1] / "instance" / "contributions"
MAX_PHOTO_BYTES = 8 * 1024 * 1024
MAX_PIXELS = 24_000_000  # a phone photo; decoding more would cost too much memory
MAX_BOXES = 60
MAX_COUNT = 5000
MAX_TOTAL_BYTES = 2 * 1024 ** 3
FORMATS = {"JPEG", "MPO", "PNG", "WEBP", "HEIF", "HEIC", "AVIF"}
TILE_CODE = re.compile(r"^(?:[0-9][mps]|[1-7]z|back)$")
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
ORPHAN_AGE = 600  # seconds after which a photo without its sidecar (a crash mid-write) is removed
JPEG_QUALITY = 92


class ContributionError(Refusal):
    """A shared photo or its labels refused."""


def hash_token(token: str) -> str:
    """As for a table's edit token (services/tables.py): only the SHA-256 is kept."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Limits:
    photo_bytes: int = MAX_PHOTO_BYTES
    count: int = MAX_COUNT
    total_bytes: int = MAX_TOTAL_BYTES
    boxes: int = MAX_BOXES
    pixels: int = MAX_PIXELS


# --- validating what the phone sends ------------------------------------------------------------

def parse_labels(raw: Any, limits: Limits = Limits()) -> dict:
    """The labels as sent (a JSON text or an already parsed object) -> {"boxes": [...], "image_size"}.

    Shape errors are 400, impossible values (an unknown tile, an empty box) 422. Whether the
    boxes fit the photo is checked once the photo is decoded (`check_boxes_fit`)."""
    if isinstance(raw, (str, bytes)):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            raise ContributionError("labels", "malformed", "labels_json") from None
    if not isinstance(raw, dict):
        raise ContributionError("labels", "malformed", "labels_object")
    boxes = raw.get("boxes")
    if not isinstance(boxes, list):
        raise ContributionError("labels.boxes", "malformed", "labels_boxes")
    if not boxes:
        raise ContributionError("labels.boxes", "impossible", "labels_no_tiles")
    if len(boxes) > limits.boxes:
        raise ContributionError("labels.boxes", "impossible", "labels_too_many", max=limits.boxes, count=len(boxes))
    out = []
    for i, item in enumerate(boxes):
        where = f"labels.boxes[{i}]"
        if not isinstance(item, dict):
            raise ContributionError(where, "malformed", "box_object")
        tile, box = item.get("tile"), item.get("box")
        if not isinstance(tile, str):
            raise ContributionError(f"{where}.tile", "malformed", "box_tile")
        if not TILE_CODE.match(tile):
            raise ContributionError(f"{where}.tile", "impossible", "box_not_tile")
        if (not isinstance(box, list) or len(box) != 4
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box)):
            raise ContributionError(f"{where}.box", "malformed", "box_corners")
        try:
            x1, y1, x2, y2 = (float(v) for v in box)
        except OverflowError:
            raise ContributionError(f"{where}.box", "malformed", "box_finite") from None
        if not all(v == v and abs(v) != float("inf") for v in (x1, y1, x2, y2)):
            raise ContributionError(f"{where}.box", "malformed", "box_finite")
        if x2 - x1 < 1 or y2 - y1 < 1:
            raise ContributionError(f"{where}.box", "impossible", "box_order")
        out.append({"tile": tile, "box": [round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1)]})
    size = raw.get("image_size")
    if size is not None:
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
            raise ContributionError("labels.image_size", "malformed", "image_size_pair")
    return {"boxes": out, "image_size": size}


def check_boxes_fit(labels: dict, width: int, height: int) -> None:
    size = labels.get("image_size")
    if size is not None and tuple(size) != (width, height):
        raise ContributionError("labels.image_size", "impossible", "labels_size", width=width, height=height)
    for i, b in enumerate(labels["boxes"]):
        x1, y1, x2, y2 = b["box"]
        if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
            raise ContributionError(f"labels.boxes[{i}].box", "impossible", "box_outside", number=i + 1)


FLATTEN_ROWS = 256  # rows converted at a time when a photo is flattened to RGB


def _orientation_copies(orientation: int) -> int:
    return 1 if orientation in range(2, 9) else 0


def _needs_rgb_copy(im: Image.Image) -> bool:
    return im.mode != "RGB"


def _flat_rgb(im: Image.Image) -> Image.Image:
    """``im`` as RGB, transparency laid over white, made strip by strip: besides the decoded image
    only the RGB result is full size (no whole-image RGBA copy, no composite of it)."""
    from recognition.image_io import converted

    if im.mode == "RGB":
        return im
    alpha = im.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (im.mode == "P" and "transparency" in im.info)
    w, h = im.size
    out = Image.new("RGB", (w, h), (255, 255, 255))
    for top in range(0, h, FLATTEN_ROWS):
        strip = im.crop((0, top, w, min(h, top + FLATTEN_ROWS)))
        if alpha:
            rgba = strip.convert("RGBA")
            out.paste(rgba.convert("RGB"), (0, top), rgba)  # the alpha band as the mask: over white
        else:
            out.paste(converted(strip, "RGB"), (0, top))
    return out


def _to_srgb(rgb: Image.Image, icc: Any) -> None:
    """Convert ``rgb`` (in place, no copy) from its embedded colour profile to sRGB. A profile that
    is not a usable RGB profile is simply dropped: the pixels are kept as they are."""
    if not isinstance(icc, bytes) or not icc:
        return
    try:
        from PIL import ImageCms

        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        transform = ImageCms.buildTransform(source, ImageCms.createProfile("sRGB"), "RGB", "RGB")
        ImageCms.applyTransform(rgb, transform, inPlace=True)
    except Exception:  # noqa: BLE001 - a broken, grey or CMYK profile: keep the pixels, drop the profile
        return


def clean_photo(data: bytes, limits: Limits = Limits()) -> tuple[bytes, int, int]:
    """Decode the upload, turn it upright by its EXIF orientation, convert it to sRGB and re-encode
    the pixels alone as JPEG: no EXIF, XMP, comment or colour profile follows (a profile can carry
    up to a megabyte of anything). Returns (jpeg bytes, width, height).

    The memory the decoding will take is worked out from the header and checked against the same
    budget as /api/recognize (recognition.image_io.check_decode_budget) before any pixel is decoded."""
    from recognition.image_io import _TRANSPOSE, ImageTooLarge, check_decode_budget

    if not data:
        raise ContributionError("image", "malformed", "photo_empty")
    if len(data) > limits.photo_bytes:
        raise ContributionError("image", "too_large", "photo_bytes", max=limits.photo_bytes // (1024 * 1024))
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data))
            fmt = (im.format or "").upper()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise ContributionError("image", "too_large", "photo_pixels") from None
        except Exception:
            raise ContributionError("image", "unsupported_media_type", "photo_unreadable") from None
        if fmt not in FORMATS:
            raise ContributionError("image", "unsupported_media_type", "photo_unreadable")
        w, h = im.size
        if w * h > limits.pixels:
            raise ContributionError("image", "too_large", "photo_pixels")
        if w < 8 or h < 8:
            raise ContributionError("image", "unsupported_media_type", "photo_tiny")
        try:  # as recognition/image_io.py does, so the boxes /api/recognize gave fit the same pixels
            orientation = im.getexif().get(0x0112, 1)
        except Exception:  # a broken EXIF block: the photo is read as it lies
            orientation = 1
        try:
            check_decode_budget(w, h, im.mode, fmt, _needs_rgb_copy(im) + _orientation_copies(orientation))
        except ImageTooLarge as err:
            raise err.moved(ContributionError, "image") from None
        try:
            im.load()
            icc = im.info.get("icc_profile")
            rgb = _flat_rgb(im)
            if rgb is not im:
                im.close()
            _to_srgb(rgb, icc)
            upright = rgb.transpose(_TRANSPOSE[orientation]) if orientation in _TRANSPOSE else rgb
            if upright is not rgb:
                rgb.close()
            # nothing of the upload's info (EXIF, XMP, comments, the colour profile) may follow the pixels
            upright.info = {}
        except ContributionError:
            raise
        except Exception:
            raise ContributionError("image", "unsupported_media_type", "photo_unreadable") from None
    out = io.BytesIO()
    upright.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue(), upright.width, upright.height


# --- the folder ---------------------------------------------------------------------------------

def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class ContributionStore:
    """The folder of contributions: add, get (with the delete token), delete, list, usage."""

    def __init__(self, folder: str | os.PathLike | None = None, limits: Limits = Limits()):
        self.folder = Path(folder) if folder else DEFAULT_DIR
        self.limits = limits

    # paths
    def _image(self, cid: str) -> Path:
        return self.folder / f"{cid}.jpg"

    def _sidecar(self, cid: str) -> Path:
        return self.folder / f"{cid}.json"

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".lock", "a+b") as lock:
            if fcntl:
                fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                if fcntl:
                    fcntl.flock(lock, fcntl.LOCK_UN)

    def usage(self) -> tuple[int, int]:
        """(contributions, bytes on disk including photos not yet swept)."""
        count = size = 0
        if not self.folder.is_dir():
            return 0, 0
        for entry in os.scandir(self.folder):
            if entry.name.startswith(".") or not entry.is_file():
                continue
            size += entry.stat().st_size
            if entry.name.endswith(".json"):
                count += 1
        return count, size

    def _sweep(self) -> None:
        """Remove what a crash left: temporary files and photos without a sidecar, once old."""
        cutoff = time.time() - ORPHAN_AGE
        for entry in os.scandir(self.folder):
            name = entry.name
            stale = entry.is_file() and entry.stat().st_mtime < cutoff
            orphan = name.endswith(".jpg") and not (self.folder / (name[:-4] + ".json")).exists()
            if stale and (name.startswith(".tmp-") or orphan):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)

    def add(self, photo: bytes, labels: Any) -> dict:
        """Validate and store one contribution; returns its record with the delete token (shown once)."""
        parsed = parse_labels(labels, self.limits)
        jpeg, width, height = clean_photo(photo, self.limits)
        check_boxes_fit(parsed, width, height)
        token = secrets.token_urlsafe(24)
        with self._locked():
            self._sweep()
            count, size = self.usage()
            if count >= self.limits.count or size + len(jpeg) + 4096 > self.limits.total_bytes:
                raise ContributionError(None, "no_room", "photos_no_room")
            cid = secrets.token_hex(9)  # no leading "-" for a command line to mistake for an option
            while self._sidecar(cid).exists():  # pragma: no cover - 72 random bits
                cid = secrets.token_hex(9)
            record = {"id": cid, "created_at": _now(), "width": width, "height": height,
                      "boxes": parsed["boxes"], "photo_bytes": len(jpeg), "token_hash": hash_token(token)}
            _write_atomic(self._image(cid), jpeg)
            _write_atomic(self._sidecar(cid), json.dumps(record, separators=(",", ":")).encode())
        return {**public(record), "delete_token": token}

    def _read(self, cid: str) -> dict | None:
        if not ID_PATTERN.match(cid or ""):
            return None
        try:
            return json.loads(self._sidecar(cid).read_text())
        except FileNotFoundError:
            return None

    def _authorised(self, cid: str, token: str | None) -> dict:
        record = self._read(cid)
        if record is None:
            raise ContributionError("id", "not_found", "no_photo")
        if not token:
            raise ContributionError("Authorization", "token_missing", "delete_token_missing")
        if not hmac.compare_digest(hash_token(token), record.get("token_hash", "")):
            raise ContributionError("Authorization", "token_wrong", "delete_token_wrong")
        return record

    def get(self, cid: str, token: str | None) -> dict:
        return public(self._authorised(cid, token))

    def delete(self, cid: str, token: str | None) -> None:
        self._authorised(cid, token)
        self.remove(cid)

    def remove(self, cid: str) -> bool:
        """Delete without a token (the operator's command). The sidecar goes first: the record is
        gone at once, and the photo left by a crash in between is swept later."""
        if not ID_PATTERN.match(cid or ""):
            return False
        with self._locked():
            try:
                self._sidecar(cid).unlink()
            except FileNotFoundError:
                return False
            with contextlib.suppress(FileNotFoundError):
                self._image(cid).unlink()
        return True

    def records(self) -> list[dict]:
        """Every complete contribution (sidecar and photo present), oldest first."""
        out: list[dict[str, Any]] = []
        if not self.folder.is_dir():
            return out
        for path in sorted(self.folder.glob("*.json")):
            cid = path.stem
            if not ID_PATTERN.match(cid) or not self._image(cid).exists():
                continue
            try:
                out.append(json.loads(path.read_text()))
            except (OSError, ValueError):
                continue  # deleted meanwhile
        out.sort(key=lambda r: (r.get("created_at", ""), r["id"]))
        return out

    def image_path(self, cid: str) -> Path:
        return self._image(cid)


def public(record: dict) -> dict:
    """A record as its owner sees it: no token hash."""
    return {"id": record["id"], "created_at": record["created_at"], "width": record["width"],
            "height": record["height"], "boxes": record["boxes"], "photo_bytes": record["photo_bytes"]}
