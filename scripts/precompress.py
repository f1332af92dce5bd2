"""Precompressed copies of the big files the phone downloads on demand (static/vendor: Pyodide for
offline scoring, ONNX Runtime Web for the live camera): <file>.gz next to each file, and <file>.br
when the `brotli` module is installed. web/pages.py serves them with Content-Encoding to a browser
that accepts it, so the offline engine is about 5 MB on the wire instead of 12 MB, with no work per
request. Run by scripts/_setup.sh after it copies the files; `--check` exits 1 when a copy is missing
or older than its file.

    python scripts/precompress.py [static/vendor]
"""
from __future__ import annotations

import gzip
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SUFFIXES = (".gz", ".br")
#: Files smaller than this gain nothing worth a second copy.
MIN_BYTES = 1024


def sources(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(".")
                  and p.suffix not in SUFFIXES and p.stat().st_size >= MIN_BYTES)


def stale(source: Path, copy: Path) -> bool:
    return not copy.exists() or copy.stat().st_mtime < source.stat().st_mtime


def _compress_one(source: Path) -> tuple[int, int, int | None]:
    """Write the stale copies of one file; its size and its copies' sizes (brotli None without it)."""
    try:
        import brotli  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        brotli = None
    data = source.read_bytes()
    gz = source.with_name(source.name + ".gz")
    if stale(source, gz):
        gz.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    br_size = None
    if brotli is not None:
        br = source.with_name(source.name + ".br")
        if stale(source, br):
            br.write_bytes(brotli.compress(data, quality=11))
        br_size = br.stat().st_size
    return len(data), gz.stat().st_size, br_size


def compress(root: Path) -> list[tuple[str, int, int, int | None]]:
    """Every file's copies, one process per core: brotli at its best quality takes about a minute
    for the ONNX Runtime and Pyodide WebAssembly alone, and each file is compressed on its own."""
    files = sources(root)
    with ProcessPoolExecutor(max_workers=max(1, min(len(files), os.cpu_count() or 1))) as pool:
        sizes = list(pool.map(_compress_one, files))
    return [(f.relative_to(root).as_posix(), *size) for f, size in zip(files, sizes)]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    root = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "static" / "vendor"
    if not root.is_dir():
        print(f"{root}: no such folder (nothing to compress)", file=sys.stderr)
        return 0
    if check:
        try:
            import brotli  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
            suffixes: tuple[str, ...] = (".gz", ".br")
        except ImportError:
            suffixes = (".gz",)
        missing = [s for s in sources(root) if any(stale(s, s.with_name(s.name + x)) for x in suffixes)]
        for s in missing:
            print(f"not precompressed: {s}", file=sys.stderr)
        return 1 if missing else 0
    for name, size, gz, br in compress(root):
        print(f"{name}: {size} -> gzip {gz}" + (f", brotli {br}" if br is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
