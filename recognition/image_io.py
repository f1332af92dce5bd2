"""Loading phone photos: bytes in, an RGB array at working size out, EXIF orientation applied.

JPEGs are decoded at reduced scale by libjpeg itself (PIL's ``Image.draft``), which is what makes
a 12 MP photo cheap; other formats are decoded whole and then shrunk strip by strip, so no
full-size copy is ever made besides the decoded image itself. The returned `scale` maps working
pixels back to the pixels of the (upright) original photo.

Memory: one photo may cost at most ``DECODE_BUDGET`` bytes of decoded pixels. JPEG never comes near
it; for a format decoded whole, the cost is known from the header (pixels x bytes per pixel x what
the decoder copies), so an image that would go over is refused with 413 before decoding. A 7000 x
7000 PNG with transparency costs about 200 MB of peak memory instead of a gigabyte
(``bench/bench_image_memory.py`` measures it).
"""
from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from PIL import Image

from scoring.errors import Refusal

try:  # HEIC/HEIF from iPhones, when the optional package is installed
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIF = True
except ImportError:  # pragma: no cover - depends on the environment
    HEIF = False

MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 50_000_000  # a 200 MP photo is not a phone photo: treat it as a decompression bomb
DECODE_BUDGET = 200 * 1024 * 1024  # bytes of decoded pixels one photo may take in a worker
#: How many copies of the decoded pixels a format's decoder holds at once, as measured (PNG and BMP decode into
#: the image itself; the HEIF decoder fills a buffer of its own that is then copied; WebP takes four).
DECODER_COPIES = {"JPEG": 1, "MPO": 1, "PNG": 1, "BMP": 1, "WEBP": 4, "HEIF": 2, "HEIC": 2, "AVIF": 4}
STRIP_ROWS = 64  # rows of the reduced image made per strip
WORK_LONG_SIDE = 1008
FORMATS = {"JPEG", "MPO", "PNG", "WEBP", "HEIF", "HEIC", "AVIF", "BMP"}


class ImageError(Refusal):
    """The upload is not something we can read (a refusal of the field ``image``)."""

    def __init__(self, detail_id: str, /, **params: Any) -> None:
        super().__init__("image", self.default_kind, detail_id, **params)


class NotAnImage(ImageError):
    default_kind = "unsupported_media_type"


class ImageTooLarge(ImageError):
    default_kind = "too_large"


@dataclass(frozen=True)
class LoadedImage:
    pixels: np.ndarray  # RGB uint8 (h, w, 3), upright, at working size
    original_size: tuple[int, int]  # (w, h) of the upright photo at full resolution
    scale: float  # working pixels per original pixel
    format: str

    def to_original(self, boxes: np.ndarray) -> np.ndarray:
        """Boxes (n, 4) in working pixels -> boxes in the original photo's pixels, clipped."""
        b = np.asarray(boxes, np.float32).reshape(-1, 4) / self.scale
        w, h = self.original_size
        return np.clip(b, 0, [w, h, w, h])


_SWAPS_AXES = {5, 6, 7, 8}  # EXIF orientations that turn the picture a quarter
_TRANSPOSE = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180, 4: Image.Transpose.FLIP_TOP_BOTTOM,
              5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
              8: Image.Transpose.ROTATE_90}  # what ImageOps.exif_transpose does for each orientation


def _bytes_per_pixel(mode: str) -> int:
    """Bytes PIL keeps per pixel of a decoded image in ``mode``."""
    if mode in ("1", "L", "P"):
        return 1
    if mode.startswith("I;16"):
        return 2
    return 4


def decode_cost(width: int, height: int, mode: str, fmt: str, extra_copies: int = 0) -> int:
    """Bytes of pixels decoding a ``width`` x ``height`` image of ``mode`` in ``fmt`` holds at its peak,
    from the header alone: what the decoder holds, plus ``extra_copies`` full-size RGB images the
    caller makes afterwards (PIL keeps RGB in 4 bytes a pixel)."""
    pixels = width * height
    return pixels * (_bytes_per_pixel(mode) * DECODER_COPIES.get(fmt, 4) + 4 * extra_copies)


def check_decode_budget(width: int, height: int, mode: str, fmt: str, extra_copies: int = 0,
                        budget: int | None = None) -> None:
    """Raise ImageTooLarge (413) before decoding when the image would cost more than the budget.

    Every path that decodes an upload (``load_image`` here, shared photos in
    recognition/contributions.py) calls this with what it will make of the image, so a tiny file
    that decodes to a huge picture (a lossless WebP or PNG of one colour) is refused unread."""
    budget = DECODE_BUDGET if budget is None else budget
    cost = decode_cost(width, height, mode, fmt, extra_copies)
    if cost > budget:
        raise ImageTooLarge("photo_pixels")


def converted(im: Image.Image, mode: str) -> Image.Image:
    """``im`` (a strip, or an image already small) in ``mode``. 16-bit greys (a PNG's "I;16" or
    "I") are brought to 8 bits first: PIL's own conversion clips them at 255, so a 16-bit photo
    came out white (and was read as no tile)."""
    if im.mode == "I" or im.mode.startswith("I;16"):
        wide = np.asarray(im)  # uint16 ("I;16"), or int32 ("I") holding 16-bit values
        if wide.dtype.kind != "u":
            wide = np.clip(wide, 0, 65535)
        im = Image.fromarray((wide >> 8).astype(np.uint8), "L")
    return im if im.mode == mode else im.convert(mode)


def _reduced(im: Image.Image, long_side: int) -> Image.Image:
    """``im`` shrunk by a whole factor to no less than ``long_side``, in RGB or RGBA.

    Made strip by strip (crop, convert, box-average with ``Image.reduce``), so converting a palette
    or 16-bit image never makes a second full-size copy. Images already small come back unchanged.
    """
    w, h = im.size
    factor = max(w, h) // long_side
    if factor < 2:
        return im
    alpha = im.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (im.mode == "P" and "transparency" in im.info)
    mode = "RGBA" if alpha else "RGB"
    out = Image.new(mode, (w // factor, h // factor))
    step = STRIP_ROWS * factor
    for top in range(0, (h // factor) * factor, step):
        bottom = min(top + step, (h // factor) * factor)
        strip = im.crop((0, top, (w // factor) * factor, bottom))
        strip = converted(strip, mode)
        out.paste(strip.reduce(factor), (0, top // factor))
    return out


def load_image(data: bytes, long_side: int = WORK_LONG_SIDE) -> LoadedImage:
    """Decode `data`. Raises NotAnImage (415) or ImageTooLarge (413) with a message for people."""
    if len(data) > MAX_BYTES:
        raise ImageTooLarge("photo_bytes", max=MAX_BYTES // (1024 * 1024))
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im: Image.Image = Image.open(io.BytesIO(data))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageTooLarge("photo_pixels") from exc
        except Exception as exc:  # UnidentifiedImageError and whatever a broken header raises
            raise NotAnImage("photo_unreadable") from exc
        fmt = (im.format or "").upper()
        if fmt not in FORMATS:
            raise NotAnImage("photo_unreadable")
        w, h = im.size
        if w * h > MAX_PIXELS:
            raise ImageTooLarge("photo_pixels")
        if w < 8 or h < 8:
            raise NotAnImage("photo_tiny")
        try:
            orientation = im.getexif().get(0x0112, 1)
        except Exception:  # a broken EXIF block should not lose the photo
            orientation = 1
        if fmt in ("JPEG", "MPO"):  # libjpeg decodes at reduced scale: the budget is that of the draft
            s = long_side / max(w, h)
            if s < 1:
                try:
                    im.draft("RGB", (math.ceil(w * s), math.ceil(h * s)))
                except Exception as exc:  # a header libjpeg cannot scale
                    raise NotAnImage("photo_unreadable") from exc
        check_decode_budget(*im.size, im.mode, fmt)
        try:
            im.load()
            if fmt not in ("JPEG", "MPO"):  # a JPEG is already small (draft); others shrink strip by strip
                im = _reduced(im, long_side)
            if orientation in _TRANSPOSE:
                im = im.transpose(_TRANSPOSE[orientation])
            if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
                rgba = im.convert("RGBA")
                bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                im = Image.alpha_composite(bg, rgba)
            pixels = np.asarray(converted(im, "RGB"))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageTooLarge("photo_pixels") from exc
        except ImageError:
            raise
        except Exception as exc:  # decoders raise many kinds of errors on broken files
            raise NotAnImage("photo_unreadable") from exc
    ow, oh = (h, w) if orientation in _SWAPS_AXES else (w, h)
    ph, pw = pixels.shape[:2]
    if max(ph, pw) > long_side * 1.05:
        s = long_side / max(ph, pw)
        pixels = cv2.resize(pixels, (max(1, round(pw * s)), max(1, round(ph * s))), interpolation=cv2.INTER_AREA)
    pixels = np.ascontiguousarray(pixels)
    return LoadedImage(pixels, (ow, oh), pixels.shape[1] / ow, fmt)
