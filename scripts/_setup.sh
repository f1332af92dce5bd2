# Shared by scripts/serve and scripts/test: a virtualenv in .venv with the pinned requirements.
setup_venv() {
  local req="$1" py="${PYTHON:-python3}"
  if [ ! -x .venv/bin/python ]; then
    "$py" -m venv .venv
  fi
  local stamp=".venv/.installed-$(cat requirements*.txt | sha256sum | cut -c1-16)-$req"
  if [ ! -f "$stamp" ]; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -r "$req"
    touch "$stamp"
  fi
}
