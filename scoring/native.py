"""Build the compiled scoring core: ``python -m scoring.native [--status|--force|--strict]``.

See scoring/_native.py for how the build is made and when an import uses it.
"""
import sys

from ._native import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
