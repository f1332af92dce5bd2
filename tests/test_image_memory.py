"""Peak memory of decoding one photo (recognition/image_io.py), measured in a fresh process.

A 7000 x 7000 PNG with transparency must not take a worker's memory (it once took about 1 GB):
the target is under 300 MB for one photo whatever the upload; bench/bench_image_memory.py reports the same numbers.
"""
import pytest
from PIL import Image

from bench.bench_image_memory import TARGET_MB, measure, pattern
from recognition.image_io import ImageTooLarge, load_image
from web.errors import STATUS


@pytest.fixture(scope="module")
def big_png(tmp_path_factory):
    path = tmp_path_factory.mktemp("img") / "big.png"
    Image.fromarray(pattern(7000, 7000, 4), "RGBA").save(path, "PNG", compress_level=1)
    return path


def test_a_7000px_png_with_transparency_stays_under_the_memory_target(big_png):
    m = measure(str(big_png))
    assert m["outcome"] == "1008x1008"           # read, at working size
    assert m["peak_kb"] / 1024 < TARGET_MB, m    # the whole process, imports included
    assert (m["peak_kb"] - m["before_kb"]) / 1024 < 7000 * 7000 * 4 * 1.5 / 2 ** 20, m  # about one decoded copy


def test_a_large_palette_png_is_reduced_without_a_full_size_rgba_copy(tmp_path):
    path = tmp_path / "p.png"
    Image.fromarray(pattern(7000, 7000, 3), "RGB").quantize(64).save(path, "PNG", transparency=0)
    m = measure(str(path))
    assert m["outcome"] == "1008x1008"
    assert (m["peak_kb"] - m["before_kb"]) / 1024 < 7000 * 7000 * 4 / 2 ** 20, m  # less than one RGBA copy


def test_an_image_that_cannot_be_decoded_within_the_budget_is_a_413_before_decoding(tmp_path):
    path = tmp_path / "big.webp"
    Image.fromarray(pattern(7000, 7000, 4), "RGBA").save(path, "WEBP", quality=30)
    with pytest.raises(ImageTooLarge) as err:
        load_image(path.read_bytes())
    assert STATUS[err.value.kind] == 413 and err.value.detail["id"] == "photo_pixels"
    m = measure(str(path))
    assert m["outcome"].startswith("too_large") and (m["peak_kb"] - m["before_kb"]) / 1024 < 50


def test_reduced_decoding_keeps_the_picture(tmp_path):
    """The strip-wise reduction gives the same picture as a plain resize (transparency on white)."""
    import numpy as np

    a = pattern(3100, 2300, 4)
    a[1000:1400, 1500:2100] = (10, 200, 30, 255)   # an opaque green block
    buf = tmp_path / "x.png"
    Image.fromarray(a, "RGBA").save(buf)
    img = load_image(buf.read_bytes())
    h, w = img.pixels.shape[:2]
    assert 1008 <= max(w, h) <= 1008 * 1.05      # as a JPEG decoded at reduced scale
    assert img.original_size == (3100, 2300)
    y, x = int(1200 * img.scale), int(1800 * img.scale)
    assert tuple(img.pixels[y, x]) == (10, 200, 30)
    corner = img.pixels[5, 5].astype(int)           # half-transparent red 0, green 5 over white
    assert corner.min() >= 120 and np.all(corner <= 255)
