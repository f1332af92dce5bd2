"""An optional compiled core: the scoring hot path compiled with mypyc from this same source.

    python -m scoring.native           # build it if the source changed since the last build
    python -m scoring.native --status  # say which one an import of scoring uses

The build goes into the virtualenv (``<sys.prefix>/tenbou-native``), never beside the source,
with a stamp: a hash of the compiled modules' source and of the Python version. At import,
:func:`activate` puts the compiled modules first on the package path only when the stamp matches
the source on disk, so an edited module is never shadowed by a stale build; anything else (no
build, no compiler, ``TENBOU_PURE_PYTHON=1``) runs the pure-Python source, with the same results.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The hot path. errors.py stays plain Python: pure-Python code subclasses its exceptions.
COMPILED = ("tiles", "hand", "points", "fu", "yaku", "engine", "_checks")
PACKAGE_DIR = Path(__file__).resolve().parent


def native_dir() -> Path:
    return Path(os.environ.get("TENBOU_NATIVE_DIR") or Path(sys.prefix) / "tenbou-native")


def source_stamp() -> str:
    digest = hashlib.sha256(sys.version.encode())
    for name in COMPILED:
        digest.update(name.encode())
        digest.update((PACKAGE_DIR / f"{name}.py").read_bytes())
    return digest.hexdigest()


def _built_stamp(root: Path) -> str | None:
    try:
        return (root / "STAMP").read_text().strip()
    except OSError:
        return None


def activate(package_path: list[str]) -> bool:
    """Use the compiled modules for this import of the package if they match the source."""
    if os.environ.get("TENBOU_PURE_PYTHON"):
        return False
    root = native_dir()
    if _built_stamp(root) != source_stamp():
        return False
    if str(root) not in sys.path:
        sys.path.append(str(root))  # mypyc's shared runtime module is a top-level module
    package_path.insert(0, str(root / "scoring"))
    return True


def build(quiet: bool = True) -> Path:
    """Compile the hot-path modules into :func:`native_dir` (replacing any earlier build)."""
    root = native_dir()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE_DIR, work / "scoring", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        cmd = [sys.executable, "-m", "mypyc", *(f"scoring/{name}.py" for name in COMPILED)]
        out = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError("mypyc failed:\n" + (out.stdout + out.stderr)[-4000:])
        staging = Path(tempfile.mkdtemp(dir=root.parent, prefix=".tenbou-native-"))
        (staging / "scoring").mkdir()
        for so in (work / "scoring").glob("*.so"):
            shutil.copy2(so, staging / "scoring" / so.name)
        for so in work.glob("*.so"):
            shutil.copy2(so, staging / so.name)
        (staging / "STAMP").write_text(source_stamp() + "\n")
    if root.exists():
        shutil.rmtree(root)
    staging.rename(root)
    return root


def main(argv: list[str]) -> int:
    import scoring

    root = native_dir()
    if "--status" in argv:
        state = "compiled" if scoring.NATIVE else "pure Python"
        print(f"scoring runs {state}; native build at {root}: "
              f"{'up to date' if _built_stamp(root) == source_stamp() else 'missing or stale'}")
        return 0
    if _built_stamp(root) == source_stamp() and "--force" not in argv:
        print(f"compiled scoring core is up to date ({root})")
        return 0
    try:
        build()
    except Exception as err:  # noqa: BLE001 - no compiler, no mypy: the pure source still works
        print(f"note: the scoring core was not compiled ({str(err).splitlines()[0]}); using pure Python", file=sys.stderr)
        return 0 if "--strict" not in argv else 1
    print(f"compiled scoring core built in {root}")
    return 0


