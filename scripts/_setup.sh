# Shared by scripts/serve and scripts/test: a virtualenv in .venv with the pinned requirements,
# and (for the tests) the Debian packages listed in scripts/system-packages.txt. Each step says
# what it does on stderr when it has work to do; a run with nothing to do is silent.
_setup_t0=$SECONDS
_setup_worked=""

_step() {  # _step "what it does" -- command...
  local what="$1" t=$SECONDS; shift 2
  echo "setup: $what ..." >&2
  "$@"
  echo "setup:   done in $((SECONDS - t)) s" >&2
  _setup_worked=1
}

_pip_install() {
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -r "$1"
}

setup_venv() {
  local req="$1" py="${PYTHON:-python3}"
  if [ ! -x .venv/bin/python ]; then
    echo "setup: first run: creating the environment, installing and compiling take about 3-5 minutes on 2 cores" >&2
    _step "creating the Python environment in .venv" -- "$py" -m venv .venv
  fi
  local stamp=".venv/.installed-$(cat requirements*.txt | sha256sum | cut -c1-16)-$req"
  if [ ! -f "$stamp" ]; then
    _step "installing the pinned Python packages of $req (pip)" -- _pip_install "$req"
    touch "$stamp"
  fi
  # Compile the scoring hot path with mypyc (same source; rebuilt only when it changed; falls back
  # to pure Python if it cannot be built). TENBOU_PURE_PYTHON=1 skips it.
  if [ -z "${TENBOU_PURE_PYTHON:-}" ] && ! .venv/bin/python -m scoring.native --status 2>/dev/null | grep -q "up to date"; then
    _step "compiling the scoring core (mypyc; one or two minutes, once per change)" -- \
      sh -c '.venv/bin/python -m scoring.native >/dev/null || true'
  fi
  if [ -n "$_setup_worked" ]; then
    echo "setup: ready in $((SECONDS - _setup_t0)) s (later runs skip what is done)" >&2
    _setup_worked=""
  fi
}

_apt_install() {
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "note: cannot install $* (not root, no sudo)" >&2
      return 1
    fi
  fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

setup_system_packages() {
  local missing=()
  while read -r pkg; do
    pkg="${pkg%%#*}"; pkg="$(echo "$pkg" | tr -d '[:space:]')"
    [ -n "$pkg" ] || continue
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done < scripts/system-packages.txt
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing system packages: ${missing[*]}" >&2
  _apt_install "${missing[@]}" || echo "note: tests that need ${missing[*]} are skipped" >&2
}

# HTTPS=1 ./scripts/serve puts Caddy (Debian package) in front of gunicorn.
setup_caddy() {
  command -v caddy >/dev/null 2>&1 && return 0
  _step "installing Caddy (Debian package caddy) for HTTPS" -- _apt_install caddy
}

# The JS packages the PWA serves from static files (package.json, pinned in package-lock.json):
# Pyodide, which runs the scoring package itself in the browser for offline scoring. Copied into
# static/vendor/pyodide (not committed); and ONNX Runtime Web (static/vendor/ort) for the live camera. Without npm the app still runs; offline scoring is then
# unavailable and says so.
_setup_js_files() {
  # $1 = dev: also the devDependencies (typescript, eslint: ./scripts/check; lighthouse: bench/),
  # which the tests and checks need; serving needs only the dependencies.
  local mode="${1:-serve}"
  local want; want="$(sed -n 's/.*"pyodide": "\([0-9.]*\)".*/\1/p' package.json | head -1)"
  local stamp="node_modules/.installed-$(sha256sum package-lock.json | cut -c1-16)-$mode"
  # an install with the devDependencies serves as well
  [ "$mode" = serve ] && [ -f "${stamp%-serve}-dev" ] && stamp="${stamp%-serve}-dev"
  if [ -f static/vendor/pyodide/.version ] && [ "$(cat static/vendor/pyodide/.version)" = "$want" ] \
     && [ -f "$stamp" ] && [ -f static/vendor/ort/ort-wasm-simd-threaded.wasm ]; then
    return 0
  fi
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "setup: installing npm from Debian" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm >/dev/null 2>&1 || true
  fi
  if ! command -v npm >/dev/null 2>&1; then
    echo "note: npm is not installed: offline scoring (Pyodide) and on-phone recognition are unavailable" >&2
    return 0
  fi
  echo "setup: installing the JS packages (Pyodide $want, about 13 MB; ONNX Runtime Web, 14 MB)" >&2
  # --omit=dev when serving: the app serves only its dependencies; the devDependencies are the JS
  # checks' tools (scripts/check, tests/test_js.py) and lighthouse for bench/
  local omit=(--omit=dev)
  [ "$mode" = dev ] && omit=()
  if ! npm ci "${omit[@]}" --no-audit --no-fund --loglevel=error >/dev/null; then
    echo "note: npm ci failed: offline scoring and on-phone recognition are unavailable" >&2
    return 0
  fi
  touch "$stamp"
  rm -rf static/vendor/pyodide
  mkdir -p static/vendor/pyodide
  for f in pyodide.mjs pyodide.asm.js pyodide.asm.wasm python_stdlib.zip pyodide-lock.json; do
    cp "node_modules/pyodide/$f" static/vendor/pyodide/
  done
  echo "$want" > static/vendor/pyodide/.version
  # ONNX Runtime Web for the live camera's on-phone recognition: its WASM build only
  rm -rf static/vendor/ort
  mkdir -p static/vendor/ort
  for f in ort.wasm.min.mjs ort-wasm-simd-threaded.mjs ort-wasm-simd-threaded.wasm; do
    cp "node_modules/onnxruntime-web/dist/$f" static/vendor/ort/
  done
  echo "setup: Pyodide and ONNX Runtime Web ready in static/vendor" >&2
}

# The copies web/pages.py serves to browsers that accept them (gzip; brotli too when the `brotli`
# module is installed): the offline engine is about 5 MB on the wire instead of 12 MB.
setup_precompressed() {
  [ -d static/vendor ] || return 0
  local py=python3
  [ -x .venv/bin/python ] && py=.venv/bin/python
  "$py" scripts/precompress.py --check 2>/dev/null && return 0
  _step "precompressing static/vendor (Pyodide, ONNX Runtime Web) once" -- "$py" scripts/precompress.py >/dev/null
}

setup_js() {  # setup_js [dev]
  _setup_js_files "${1:-serve}"
  setup_precompressed
}
