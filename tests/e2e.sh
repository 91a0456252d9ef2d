#!/usr/bin/env bash
# End-to-end check of the built page: `trunk build --release`, dist/ served under a
# sub-path (as on a project page of a static host) by python3's http.server on 127.0.0.1,
# loaded in headless Chromium; the plan table must appear, made by the real Web Worker,
# with global's recommended plan and its proof status; then, in that worker, global's
# search shows in the status line and Cancel stops it, a 0.5 s time budget gives the best
# plan found with its gap, and a bad budget is refused with a message; finally a bundled
# trace (160 jobs of the Pollux artifact on 16 × t4x4) is loaded and planned by the worker,
# and then on 16 × t4x4 machines (version 2), whose machine map shows a mark per placed task.
# Then the page as hosted (scripts/page.mjs hosted, which serves the same sub-path itself so
# that it can take the server down): the icon resolves, the link preview tags are there, a
# share link made there opens its scenario there, the service worker is scoped to the
# sub-path and controls the page after a reload, a new publish replaces its cache, and with
# the server down and the browser offline a reload still opens and plans.
# Then accessibility at a laptop's 1024×768 (scripts/page.mjs a11y): axe-core (npm, pinned
# in toolchain.versions) on every view with its result on screen — Plan, Over time, Sweep,
# Side by side, Reproduce, How it works, Step through, and Plan on 16 × t4x4 machines —
# fails on any serious or critical violation; each view's result (on Plan the Policies
# card) starts on the first screen;
# no table but the input lists (jobs, machine groups) is wider than its box.
#
# The page is driven in real time by playwright-core (scripts/page.mjs e2e). Chromium's
# `--dump-dom --virtual-time-budget` is not used: virtual time fast-forwards through the
# page's idle time while the worker loads and computes in real time, so the dump often
# came before the plan.
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
passed=0
failed=0
count() { if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }
say "loading $url in headless Chromium"
count node scripts/page.mjs e2e "$url" 30
say "the hosted page: icon, link previews, share link, service worker, offline"
count node scripts/page.mjs hosted "$site" /some/sub/path/ 30
say "accessibility and layout at 1024×768 (axe-core)"
count node scripts/page.mjs a11y "$url" 30
echo "e2e: $passed passed, $failed failed"
[ "$failed" = 0 ]
