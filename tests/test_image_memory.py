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


# --- issue 24: shared photos (/api/contributions) go through the same budget ------------------

CLEAN_CHILD = r"""
import sys, json
def hwm_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
sys.path.insert(0, sys.argv[2])
from recognition.contributions import ContributionError, clean_photo
import io
from PIL import Image
warm = io.BytesIO()
Image.new("RGBA", (16, 16), (1, 2, 3, 128)).save(warm, "WEBP", lossless=True)
clean_photo(warm.getvalue())   # imports and codec set-up are paid before the measurement
data = open(sys.argv[1], "rb").read()
before = hwm_kb()
try:
    jpeg, w, h = clean_photo(data)
    outcome = f"{w}x{h}"
except ContributionError as exc:
    outcome = f"{exc.kind}: {exc.detail['id']}"
print(json.dumps({"before_kb": before, "peak_kb": hwm_kb(), "outcome": outcome}))
"""


def measure_clean(path) -> dict:
    """Peak memory of a fresh process cleaning ``path`` for sharing (recognition.contributions.clean_photo)."""
    import json
    import subprocess
    import sys

    from bench.bench_image_memory import ROOT

    out = subprocess.run([sys.executable, "-c", CLEAN_CHILD, str(path), ROOT], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_tiny_lossless_webp_of_24_megapixels_is_refused_for_sharing_before_decoding(tmp_path):
    """A 24 MP RGBA lossless WebP of one colour is under a kilobyte and needed ~550 MB to decode."""
    path = tmp_path / "bomb.webp"
    Image.new("RGBA", (6000, 4000), (10, 20, 30, 128)).save(path, "WEBP", lossless=True)
    assert path.stat().st_size < 10_000
    m = measure_clean(path)
    assert m["outcome"] == "too_large: photo_pixels", m
    assert (m["peak_kb"] - m["before_kb"]) / 1024 < 50, m


def test_a_transparent_png_is_flattened_for_sharing_without_whole_image_copies(tmp_path):
    """A 24 MP RGBA PNG (0.5 MB on disk) took +370 MB (four RGBA copies): now the decoded image, its RGB
    result and PIL's working memory (measured +233 MB)."""
    path = tmp_path / "big.png"
    Image.fromarray(pattern(6000, 4000, 4), "RGBA").save(path, "PNG", compress_level=1)
    m = measure_clean(path)
    assert m["outcome"] == "6000x4000", m
    rgba_mb = 6000 * 4000 * 4 / 2 ** 20
    assert (m["peak_kb"] - m["before_kb"]) / 1024 < rgba_mb * 2.8, m   # was 4.0 copies


def test_flattening_lays_transparency_over_white(tmp_path):
    import io

    import numpy as np

    from recognition.contributions import clean_photo

    a = np.zeros((600, 500, 4), np.uint8)
    a[..., 3] = 0                       # transparent: white
    a[300:, :, :] = (0, 0, 200, 255)    # opaque blue below
    buf = io.BytesIO()
    Image.fromarray(a, "RGBA").save(buf, "PNG")
    jpeg, w, h = clean_photo(buf.getvalue())
    out = np.asarray(Image.open(io.BytesIO(jpeg)).convert("RGB")).astype(int)
    assert (w, h) == (500, 600)
    assert out[100, 100].min() > 245 and abs(out[500, 250] - (0, 0, 200)).max() < 12
