"""Photos made on the fly for the tests of shared photos and their export."""
from __future__ import annotations

import io

import numpy as np
from PIL import Image


def make_photo(w: int = 320, h: int = 200, exif: Image.Exif | None = None, fmt: str = "JPEG", **save) -> bytes:
    """A photo with a distinct pattern: the left half bright, so orientation can be seen."""
    arr = np.zeros((h, w, 3), np.uint8)
    arr[:, : w // 2] = (230, 230, 230)
    arr[: h // 4, :, 0] = 200  # a red band along the top
    out = io.BytesIO()
    kwargs = {"exif": exif} if exif is not None else {}
    Image.fromarray(arr).save(out, fmt, **kwargs, **save)
    return out.getvalue()


def gps_exif(orientation: int = 1) -> Image.Exif:
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x0110] = "Phone 12"  # Model
    gps = {1: "N", 2: (35.0, 39.0, 29.0), 3: "E", 4: (139.0, 44.0, 28.0)}  # Tokyo
    exif[0x8825] = gps  # GPSInfo IFD
    return exif
