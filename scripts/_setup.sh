# Shared by scripts/serve and scripts/test: a virtualenv in .venv with the pinned requirements,
# and (for the tests) the Debian packages listed in scripts/system-packages.txt.
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
  # Compile the scoring hot path with mypyc (same source; rebuilt only when it changed; falls back
  # to pure Python if it cannot be built). TENBOU_PURE_PYTHON=1 skips it.
  if [ -z "${TENBOU_PURE_PYTHON:-}" ]; then
    .venv/bin/python -m scoring.native >/dev/null || true
  fi
}

setup_system_packages() {
  local missing=()
  while read -r pkg; do
    pkg="${pkg%%#*}"; pkg="$(echo "$pkg" | tr -d '[:space:]')"
    [ -n "$pkg" ] || continue
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done < scripts/system-packages.txt
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "note: cannot install ${missing[*]} (not root, no sudo); tests that need them are skipped" >&2
      return 0
    fi
  fi
  echo "installing system packages: ${missing[*]}" >&2
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
