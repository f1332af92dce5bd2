"""Loading phone photos: bytes in, an RGB array at working size out, EXIF orientation applied.

JPEGs are decoded at reduced scale by libjpeg itself (PIL's ``Image.draft``), which is what makes
a 12 MP photo cheap; other formats are decoded whole and then shrunk. The returned `scale` maps
working pixels back to the pixels of the (upright) original photo.
"""
from __future__ import annotations

import io
import math
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageOps

try:  # HEIC/HEIF from iPhones, when the optional package is installed
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIF = True
except ImportError:  # pragma: no cover - depends on the environment
    HEIF = False

MAX_BYTES = 20 * 1024 * 1024
MAX_PIXELS = 50_000_000  # a 200 MP photo is not a phone photo: treat it as a decompression bomb
WORK_LONG_SIDE = 1008
FORMATS = {"JPEG", "MPO", "PNG", "WEBP", "HEIF", "HEIC", "AVIF", "BMP"}


class ImageError(ValueError):
    """The upload is not something we can read; `status` is the HTTP status it deserves."""

    status = 400


class NotAnImage(ImageError):
    status = 415


class ImageTooLarge(ImageError):
    status = 413


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


def load_image(data: bytes, long_side: int = WORK_LONG_SIDE) -> LoadedImage:
    """Decode `data`. Raises NotAnImage (415) or ImageTooLarge (413) with a message for people."""
    if len(data) > MAX_BYTES:
        raise ImageTooLarge(f"the photo is {len(data) / 1e6:.1f} MB; the limit is {MAX_BYTES // (1024 * 1024)} MB")
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            im = Image.open(io.BytesIO(data))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageTooLarge("the image has too many pixels to be a photo") from exc
        except Exception as exc:  # UnidentifiedImageError and whatever a broken header raises
            raise NotAnImage("not an image we can read (send a JPEG, PNG, WebP or HEIC photo)") from exc
        fmt = (im.format or "").upper()
        if fmt not in FORMATS:
            raise NotAnImage(f"unsupported image format {fmt or 'unknown'} (send a JPEG, PNG, WebP or HEIC photo)")
        w, h = im.size
        if w * h > MAX_PIXELS:
            raise ImageTooLarge(f"the image is {w}x{h} pixels; at most {MAX_PIXELS // 1_000_000} MP is accepted")
        if w < 8 or h < 8:
            raise NotAnImage(f"the image is only {w}x{h} pixels")
        try:
            orientation = im.getexif().get(0x0112, 1)
        except Exception:  # a broken EXIF block should not lose the photo
            orientation = 1
        try:
            if fmt in ("JPEG", "MPO"):
                s = long_side / max(w, h)
                if s < 1:
                    im.draft("RGB", (math.ceil(w * s), math.ceil(h * s)))
            im.load()
            if orientation in range(2, 9):
                im = ImageOps.exif_transpose(im)
            if im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info):
                rgba = im.convert("RGBA")
                bg = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                im = Image.alpha_composite(bg, rgba)
            pixels = np.asarray(im.convert("RGB"))
        except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
            raise ImageTooLarge("the image has too many pixels to be a photo") from exc
        except ImageError:
            raise
        except Exception as exc:  # decoders raise many kinds of errors on broken files
            raise NotAnImage("the image could not be decoded (is the file complete?)") from exc
    ow, oh = (h, w) if orientation in _SWAPS_AXES else (w, h)
    ph, pw = pixels.shape[:2]
    if max(ph, pw) > long_side * 1.05:
        s = long_side / max(ph, pw)
        pixels = cv2.resize(pixels, (max(1, round(pw * s)), max(1, round(ph * s))), interpolation=cv2.INTER_AREA)
    pixels = np.ascontiguousarray(pixels)
    return LoadedImage(pixels, (ow, oh), pixels.shape[1] / ow, fmt)
