"""The app stands on its own: creating it and recognising a photo import nothing from training/
(which holds the evaluation tools, training.evaluate) or bench/, which read ../shared (players' servers do not have it)."""
from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = """
import io, sys
import numpy as np
from PIL import Image
from app import create_app
app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://"})
buf = io.BytesIO()
Image.fromarray(np.full((64, 64, 3), 90, np.uint8)).save(buf, "PNG")
resp = app.test_client().post("/api/recognize", data={"image": (io.BytesIO(buf.getvalue()), "a.png")},
                              content_type="multipart/form-data")
assert resp.status_code == 200, resp.status_code
print(" ".join(sorted(m for m in sys.modules if m.split(".")[0] in ("training", "bench"))))
"""


def test_the_app_imports_no_training_or_evaluation_code():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ""
