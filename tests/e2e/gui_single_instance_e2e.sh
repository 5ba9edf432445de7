#!/usr/bin/env bash
# End to end: the real relayhud binary, twice, offscreen. A second start with
# the same cache hands its relayhud:// link to the first and exits 0; the first
# selects the run (it says so on stderr); a link to what the cache lacks is
# reported; a socket left by a killed instance is taken over; another cache
# runs side by side. Without XDG_RUNTIME_DIR, a socket folder in the shared
# temporary directory that another user made first (or made open to all) is
# refused in one line, and the window opens on its own.
# usage: gui_single_instance_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"

export QT_QPA_PLATFORM=offscreen
export XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache XDG_DATA_HOME=$work/data
export XDG_RUNTIME_DIR=$work/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
dead_hud=http://127.0.0.1:1 # no sync: the window shows the cache

guis=()
stop_guis() { for p in "${guis[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap 'stop_guis; cleanup' EXIT

# start_gui NAME CACHE [LINK...]: a first instance in the background, once its
# socket is up; its stderr in $work/NAME.err, its pid in $gui_pid.
start_gui() {
  local name=$1 cache=$2
  shift 2
  local before
  before=$(find "$XDG_RUNTIME_DIR" -name 'relayhud-*.sock' | wc -l)
  "$bin/relayhud" --now "$now" --cache "$cache" --hud "$dead_hud" "$@" 2>"$work/$name.err" &
  gui_pid=$!
  guis+=("$gui_pid")
  for _ in $(seq 200); do
    [ "$(find "$XDG_RUNTIME_DIR" -name 'relayhud-*.sock' | wc -l)" -gt "$before" ] && return 0
    kill -0 "$gui_pid" 2>/dev/null || fail "$name exited: $(cat "$work/$name.err")"
    sleep 0.1
  done
  fail "$name never listened: $(cat "$work/$name.err")"
}

# wait_for FILE TEXT: TEXT appears in FILE within 20 s.
wait_for() {
  for _ in $(seq 200); do
    grep -qF -- "$2" "$1" && return 0
    sleep 0.1
  done
  fail "no '$2' in $1: $(cat "$1")"
}

# second CACHE LINK...: a second start; must hand over and exit 0 within 20 s.
second() {
  local cache=$1
  shift
  set +e
  timeout 20 "$bin/relayhud" --now "$now" --cache "$cache" --hud "$dead_hud" "$@" 2>"$work/second.err"
  local rc=$?
  set -e
  [ $rc -eq 0 ] || fail "second instance exit $rc: $(cat "$work/second.err")"
  grep -q 'the running instance took the arguments' "$work/second.err" ||
    fail "second instance: $(cat "$work/second.err")"
}

echo "== a cache with runs"
start_sim
"$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" sync --hud "$url" --days 30 >/dev/null ||
  fail "sync"
"$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" suggest --failed --format tsv >"$work/failed.tsv" ||
  fail "suggest --failed"
id=$(awk -F'\t' '$2 ~ /^[0-9]+$/ { print $2; exit }' "$work/failed.tsv")
[ -n "$id" ] || fail "no failed check run in the cache"
echo "check run $id"

echo "== the first instance; a second hands it relayhud://run/$id and exits 0"
start_gui first "$work/cache.sqlite"
first_pid=$gui_pid
second "$work/cache.sqlite" "relayhud://run/$id"
wait_for "$work/first.err" "relayhud://run/$id: Showing"
kill -0 "$first_pid" || fail "the first instance died"

echo "== a link to what the cache lacks is reported, not dropped"
second "$work/cache.sqlite" "relayhud://run/1"
wait_for "$work/first.err" "relayhud://run/1: not opened: Check run 1 is not in the cache"
second "$work/cache.sqlite" "relayhud://run/zz"
wait_for "$work/first.err" "relayhud://run/zz: not opened: Cannot open"

echo "== another cache runs side by side"
start_gui other "$work/other.sqlite"
sleep 1
kill -0 "$gui_pid" || fail "the other cache's instance exited: $(cat "$work/other.err")"
kill "$gui_pid"

echo "== a killed instance's socket is taken over"
kill -KILL "$first_pid"
wait "$first_pid" 2>/dev/null || true
stale=$(find "$XDG_RUNTIME_DIR" -name 'relayhud-*.sock' | wc -l)
[ "$stale" -ge 1 ] || fail "no socket file left behind to test with"
"$bin/relayhud" --now "$now" --cache "$work/cache.sqlite" --hud "$dead_hud" "relayhud://run/$id" \
  2>"$work/restarted.err" &
guis+=("$!")
restarted=$!
wait_for "$work/restarted.err" "relayhud://run/$id: Showing"
kill -0 "$restarted" || fail "the restarted instance exited: $(cat "$work/restarted.err")"
second "$work/cache.sqlite" "relayhud://run/$id"
kill "$restarted"

echo "== a socket folder someone else made first is refused; the window opens on its own"
shared_tmp=$work/shared-tmp
squat=$shared_tmp/relayhud-$(id -u)
mkdir -p "$squat"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
  chmod 700 "$squat" && chown nobody "$squat"
  why="$squat belongs to uid $(id -u nobody), not to you (uid 0)"
else
  chmod 777 "$squat"
  why="$squat has mode 0777, not 0700"
fi
env -u XDG_RUNTIME_DIR TMPDIR="$shared_tmp" "$bin/relayhud" --now "$now" --cache "$work/cache.sqlite" \
  --hud "$dead_hud" "relayhud://run/$id" 2>"$work/squat.err" &
guis+=("$!")
alone=$!
wait_for "$work/squat.err" "relayhud: links from other instances will not reach this one: $why"
wait_for "$work/squat.err" "relayhud://run/$id: Showing"
kill -0 "$alone" || fail "the window did not stay open: $(cat "$work/squat.err")"
[ -z "$(find "$squat" -name 'relayhud-*.sock')" ] || fail "a socket was made in the squatted folder"
kill "$alone"
echo "ok"
