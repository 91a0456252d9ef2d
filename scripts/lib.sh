# Shared by scripts/serve, scripts/test, tests/e2e.sh, .ci/run and the Pages workflow
# (.github/workflows/pages.yml) (source it).
# Installs what the page needs, each step skipped when the tool is present at the right
# version, so a second run costs nothing. The versions are pinned in ../toolchain.versions.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../toolchain.versions
source "$ROOT/toolchain.versions"
export PATH="$ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true

say() { printf '== %s\n' "$*" >&2; }

ensure_wasm_target() {
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

ensure_wasm_bindgen() {
  if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (~5 min)"
    # No --locked: the registry lacks a newest dependency of its lock file.
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
  fi
}

ensure_trunk() {
  if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
    say "installing trunk $TRUNK_VERSION (~20 min on 2 cores)"
    cargo install trunk --version "$TRUNK_VERSION" --locked --force
  fi
}

# The npm tools, installed together (npm prunes packages a later install does not name).
ensure_node_tools() {
  local opt_ok=0 pw_ok=0 axe_ok=0
  "$ROOT/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}" && opt_ok=1
  [ "$(node -p "require('$ROOT/node_modules/playwright-core/package.json').version" 2>/dev/null)" = "$PLAYWRIGHT_VERSION" ] && pw_ok=1
  [ "$(node -p "require('$ROOT/node_modules/axe-core/package.json').version" 2>/dev/null)" = "$AXE_CORE_VERSION" ] && axe_ok=1
  if [ $opt_ok = 0 ] || [ $pw_ok = 0 ] || [ $axe_ok = 0 ]; then
    say "installing wasm-opt (npm binaryen@$BINARYEN_VERSION), playwright-core@$PLAYWRIGHT_VERSION and axe-core@$AXE_CORE_VERSION"
    (cd "$ROOT" && npm install --no-audit --no-fund --no-save \
      "binaryen@$BINARYEN_VERSION" "playwright-core@$PLAYWRIGHT_VERSION" "axe-core@$AXE_CORE_VERSION" >&2)
  fi
}

ensure_wasm_opt() {
  ensure_node_tools
}

ensure_browser() {
  if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    say "installing Debian's chromium and chromium-driver"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver >&2
  fi
}

ensure_page_tools() {
  ensure_wasm_target
  ensure_wasm_bindgen
  ensure_trunk
  ensure_wasm_opt
}

# A free TCP port on 127.0.0.1.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
