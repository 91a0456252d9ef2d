#!/usr/bin/env bash
# End-to-end check of the built page: `trunk build --release`, dist/ served under a
# sub-path (as on a project page of a static host) by python3's http.server on 127.0.0.1,
# loaded in headless Chromium; the plan table must appear, made by the real Web Worker.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$ROOT"
ensure_page_tools
ensure_browser

say "trunk build --release"
trunk build --release

site=$(mktemp -d)
mkdir -p "$site/some/sub/path"
cp -r dist/. "$site/some/sub/path/"
port=$(free_port)
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$site" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$site"' EXIT
for _ in $(seq 50); do
  curl -sf "http://127.0.0.1:$port/some/sub/path/" >/dev/null && break
  sleep 0.1
done

url="http://127.0.0.1:$port/some/sub/path/"
say "loading $url in headless Chromium"
# Chromium's virtual time runs the page (and its worker) until the budget is spent; try a
# larger budget once more before failing.
for budget in 60000 180000; do
  dom=$(chromium_headless --window-size=1400,1000 --virtual-time-budget=$budget --dump-dom "$url")
  rows=$(grep -o 'data-testid="plan-row"' <<<"$dom" | wc -l)
  [ "$rows" -gt 0 ] && break
  say "no plan yet after a virtual-time budget of $budget ms"
done
fail() { echo "e2e: FAILED: $*" >&2; exit 1; }
grep -q 'data-testid="plan-table"' <<<"$dom" || fail "no plan table"
[ "$rows" -eq 30 ] || fail "expected 30 plan rows (the default scenario), got $rows"
grep -q 'data-testid="total-utility">[0-9]' <<<"$dom" || fail "no total utility"
grep -q 'data-testid="policy-compare"' <<<"$dom" || fail "no policy comparison"
grep -q 'solver ready' <<<"$dom" || fail "the worker did not report ready"
if grep -q 'solver restarted' <<<"$dom"; then fail "the worker died"; fi
echo "plan table with $rows rows from the worker, page served under a sub-path"
echo "e2e: 1 passed, 0 failed"
