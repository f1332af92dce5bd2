"""Peak memory of decoding one upload, each in a fresh process (as a worker sees it).

    python -m bench.bench_image_memory            # the standard set of large uploads
    python -m bench.bench_image_memory --size 5000

For each image it reports the peak resident memory of a process that imports the loader and then
decodes the image (VmHWM of a child process, Linux), the peak above the same process
before decoding, and that increase as a ratio of the image's full RGBA size (w x h x 4 bytes,
what a naive decode-then-convert would need at the very least; the code before issue 13 took
about five times that for a PNG with transparency). The target is under 300 MB per photo.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET_MB = 300

# VmHWM (the peak resident size of this process's memory) rather than getrusage's ru_maxrss, which
# Linux carries over from the parent across fork and would report the parent's peak.
CHILD = r"""
import sys, json
def hwm_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
sys.path.insert(0, sys.argv[2])
from recognition.image_io import ImageError, load_image
data = open(sys.argv[1], "rb").read()
before = hwm_kb()
try:
    img = load_image(data)
    outcome = "x".join(map(str, img.pixels.shape[:2][::-1]))
except ImageError as exc:
    outcome = f"{exc.kind}: {exc}"
print(json.dumps({"before_kb": before, "peak_kb": hwm_kb(), "outcome": outcome}))
"""


def measure(path: str) -> dict:
    """Peak RSS (KB, Linux VmHWM) of a fresh process before and after decoding ``path``."""
    import json

    out = subprocess.run([sys.executable, "-c", CHILD, path, ROOT], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def pattern(w: int, h: int, channels: int) -> np.ndarray:
    """A compressible test card: gradients, a half-transparent alpha with opaque dots."""
    a = np.zeros((h, w, channels), np.uint8)
    a[..., 0] = (np.arange(w) % 251)[None, :]
    a[..., 1] = (np.arange(h) % 241)[:, None]
    if channels == 4:
        a[..., 3] = 128
        a[::7, ::5, 3] = 255
    return a


def samples(size: int, folder: str) -> list[tuple[str, str]]:
    out = []
    rgba = Image.fromarray(pattern(size, size, 4), "RGBA")
    for name, save in (
        (f"{size}x{size} PNG with transparency", lambda p: rgba.save(p, "PNG")),
        (f"{size}x{size} palette PNG with transparency", lambda p: rgba.convert("RGB").quantize(64).save(p, "PNG", transparency=0)),
        (f"{size}x{size} JPEG", lambda p: rgba.convert("RGB").save(p, "JPEG", quality=80)),
        (f"{size}x{size} WebP with transparency", lambda p: rgba.save(p, "WEBP", quality=50)),
        ("4000x3000 WebP", lambda p: rgba.convert("RGB").crop((0, 0, 4000, 3000)).save(p, "WEBP", quality=50)),
    ):
        path = os.path.join(folder, f"{len(out)}.img")
        save(path)
        out.append((name, path))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=7000, help="side of the square test images (default 7000)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        print(f"{'upload':45} {'bytes':>10} {'peak MB':>8} {'+MB':>6} {'ratio':>6}  outcome")
        worst = 0.0
        for name, path in samples(args.size, folder):
            m = measure(path)
            w, h = Image.open(path).size
            added = (m["peak_kb"] - m["before_kb"]) / 1024
            worst = max(worst, m["peak_kb"] / 1024)
            print(f"{name:45} {os.path.getsize(path):>10} {m['peak_kb'] / 1024:>8.0f} {added:>6.0f} "
                  f"{added * 1024 * 1024 / (w * h * 4):>6.2f}  {m['outcome']}")
        print(f"worst peak {worst:.0f} MB (target under {TARGET_MB} MB per photo)")


if __name__ == "__main__":
    main()
