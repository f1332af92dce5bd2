"""Image loading and OpenCV preprocessing on synthetic images with known answers."""
from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from recognition.image_io import ImageTooLarge, NotAnImage, load_image
from recognition.preprocess import fit_resize, shrink_factor, square_crops, to_nchw
from recognition.reading import out_of_focus
from web.errors import STATUS


def _encode(arr: np.ndarray, fmt: str, **kw) -> bytes:
    out = io.BytesIO()
    Image.fromarray(arr).save(out, fmt, **kw)
    return out.getvalue()


def _marked(w: int, h: int) -> np.ndarray:
    """Grey image with a red block in the top-left corner (to see where rotations put it)."""
    a = np.full((h, w, 3), 128, np.uint8)
    a[: h // 4, : w // 4] = (220, 20, 20)
    return a


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_formats_load_to_rgb(fmt):
    img = load_image(_encode(_marked(320, 240), fmt))
    assert img.pixels.shape == (240, 320, 3) and img.pixels.dtype == np.uint8
    assert img.original_size == (320, 240) and img.scale == 1.0
    r, g, b = img.pixels[10, 10]
    assert r > 180 and g < 80 and b < 80


def _png16(w: int, h: int) -> bytes:
    """A 16-bit grey PNG: a dark left half (0x2000, an eighth of full scale) and a light right half."""
    a = np.full((h, w), 0xE000, np.uint16)
    a[:, : w // 2] = 0x2000
    ok, buf = cv2.imencode(".png", a)
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("w, h", [(320, 240), (2400, 1800)])  # as it is, and shrunk strip by strip
def test_a_16_bit_grey_png_keeps_its_tones(w, h):
    img = load_image(_png16(w, h))
    assert Image.open(io.BytesIO(_png16(8, 8))).mode.startswith("I")  # the case PIL would clip white
    left, right = img.pixels[:, : img.pixels.shape[1] // 4], img.pixels[:, -img.pixels.shape[1] // 4:]
    assert abs(int(np.median(left)) - 0x20) <= 1 and abs(int(np.median(right)) - 0xE0) <= 1


def test_png_alpha_is_flattened_on_white():
    a = np.zeros((50, 60, 4), np.uint8)
    img = load_image(_encode(a, "PNG"))
    assert img.pixels.shape == (50, 60, 3)
    assert img.pixels.min() == 255


def test_exif_orientation_is_applied_and_sizes_swap():
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: show the picture turned a quarter clockwise
    data = _encode(_marked(400, 300), "JPEG", exif=exif.tobytes(), quality=95)
    img = load_image(data)
    assert img.pixels.shape == (400, 300, 3)
    assert img.original_size == (300, 400)
    # the red corner was top-left; a quarter turn clockwise puts it top-right
    assert img.pixels[10, -10, 0] > 180 and img.pixels[10, 10, 0] < 160


def test_big_jpeg_is_decoded_at_reduced_scale_and_boxes_map_back():
    data = _encode(_marked(4032, 3024), "JPEG", quality=80)
    img = load_image(data, long_side=1008)
    assert max(img.pixels.shape[:2]) == 1008
    assert img.original_size == (4032, 3024)
    assert img.scale == pytest.approx(0.25)
    back = img.to_original(np.array([[100, 50, 200, 150]]))
    assert back.tolist() == [[400, 200, 800, 600]]


def test_not_an_image_is_415():
    with pytest.raises(NotAnImage) as exc:
        load_image(b"this is not a photo at all")
    assert exc.value.kind == "unsupported_media_type" and STATUS[exc.value.kind] == 415


def test_truncated_jpeg_is_415():
    data = _encode(_marked(640, 480), "JPEG")
    with pytest.raises(NotAnImage):
        load_image(data[: len(data) // 3])


def _png_header_only(w: int, h: int) -> bytes:
    """A PNG that claims w x h pixels (a decompression bomb's header) with a tiny body."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b"")


def test_decompression_bomb_is_413():
    with pytest.raises(ImageTooLarge) as exc:
        load_image(_png_header_only(30000, 30000))
    assert exc.value.kind == "too_large" and STATUS[exc.value.kind] == 413


def test_oversized_upload_is_413():
    with pytest.raises(ImageTooLarge):
        load_image(b"\xff\xd8" + b"\0" * (20 * 1024 * 1024 + 1))


def test_fit_resize_keeps_aspect_and_pads_to_stride():
    img = np.zeros((1008, 756, 3), np.uint8)
    out, tf = fit_resize(img, 512)
    assert out.shape == (512, 384, 3)
    assert tf.scale == pytest.approx(384 / 756)
    odd = np.zeros((300, 1000, 3), np.uint8)
    out, tf = fit_resize(odd, 512)
    assert out.shape[1] == 512 and out.shape[0] % 32 == 0 and out.shape[0] >= round(300 * 512 / 1000)
    # padding is grey, below the content
    assert (out[-1] == 114).all()
    assert tf.to_source(np.array([[0, 0, 512, 154]]))[0, 2] == pytest.approx(1000)


def test_square_crop_is_centred_on_the_box():
    img = np.zeros((400, 600, 3), np.uint8)
    img[100:180, 200:260] = (0, 255, 0)  # a 60 x 80 "tile"
    crop = square_crops(img, np.array([[200, 100, 260, 180]]), size=64, context=1.2)[0]
    assert crop.shape == (64, 64, 3)
    assert crop[32, 32, 1] == 255
    # 80 px * 1.2 = 96 px side: the tile's 60 px width covers 40 of 64 columns, centred
    row = crop[32, :, 1] > 128
    cols = np.nonzero(row)[0]
    assert abs(cols.min() - 12) <= 1 and abs(cols.max() - 51) <= 1


def test_square_crop_of_a_small_box_in_a_big_image_and_at_the_border():
    img = np.zeros((2000, 2000, 3), np.uint8)
    img[0:300, 0:300] = 200
    crops = square_crops(img, np.array([[0, 0, 300, 300], [1990, 1990, 2000, 2000]]), size=32)
    assert crops.shape == (2, 32, 32, 3)
    assert crops[0, 16, 16, 0] == 200


@pytest.mark.parametrize("tile", [110.0, 190.0, 333.0, 610.0])
def test_a_large_tile_is_cut_where_a_small_one_is_and_without_moire(tile):
    """A tile too large for bilinear alone (a close-up) is averaged f x f first, then resampled: on a
    smooth picture its crop is the one bilinear alone cuts (the same place, not shifted by the
    blocks' half pixel), and a fine pattern, which bilinear alone would turn to moire, stays its
    grey mean."""
    for s in np.linspace(0.01, 0.499, 200):  # the bilinear step after the blocks neither skips pixels nor enlarges
        assert 0.5 <= s * shrink_factor(s) <= 1.0
    side = tile * 1.2
    yy, xx = np.mgrid[0:1600, 0:1600].astype(np.float32)
    wave = side / 12  # two waves across the crop: smooth for both filters
    img = np.stack([128 + 90 * np.sin(xx / wave), 128 + 90 * np.cos(yy / wave * 1.3), 100 + 0 * xx], -1)
    img[:, 1200:, 2] = np.where((xx[:, 1200:] + yy[:, 1200:]) % 2, 255, 0)  # a checkerboard in blue, right
    img = img.astype(np.uint8)
    box = np.array([[300.0, 400.5, 300.0 + tile, 400.5 + tile]], np.float32)
    crop = square_crops(img, box)[0].astype(np.float32)
    s = 64 / side
    m = np.array([[s, 0, 32 - s * (300 + tile / 2)], [0, s, 32 - s * (400.5 + tile / 2)]], np.float32)
    plain = cv2.warpAffine(img, m, (64, 64), flags=cv2.INTER_LINEAR).astype(np.float32)
    err = np.abs(crop - plain)[2:-2, 2:-2, :2].mean()
    moved = np.abs(crop[2:-2, 3:-1, :2] - plain[2:-2, 2:-2, :2]).mean()  # one pixel off, for scale
    assert err < moved / 4, (err, moved)
    check = square_crops(img, np.array([[1300.0, 500.0, 1300.0 + tile, 500.0 + tile]], np.float32))[0, 8:-8, 8:-8, 2]
    assert abs(float(check.mean()) - 127.5) < 4 and check.std() < 12, (check.mean(), check.std())


def test_to_nchw_scales_to_unit_range():
    x = to_nchw(np.full((2, 8, 8, 3), 255, np.uint8))
    assert x.shape == (2, 3, 8, 8) and x.dtype == np.float32 and x.max() == 1.0


def test_out_of_focus_goes_by_the_median_of_enough_tiles():
    assert out_of_focus([0.02, 0.03, 0.5], 0.06)  # most tiles soft: said
    assert not out_of_focus([0.02, 0.3, 0.5], 0.06)  # one soft tile (a tile lying in shadow) is not the photo
    assert not out_of_focus([0.01], 0.06)  # one tile says too little
    assert not out_of_focus([0.01, 0.01], None)  # off
