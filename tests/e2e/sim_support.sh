# Sourced by the end-to-end scripts: a scratch folder removed on exit, fail(),
# and start_sim FLAGS... which (re)starts relayhud-sim on a free port and sets
# $url (the HUD), $api (its GitHub API) and $s3 (its S3 endpoint) from the
# three lines it prints, and $sim_pid. Needs $bin.
# $now is the tests' "now" (tests/core/test_world.h): the simulator's world is
# as of then, and every relayhud-cli and relayhud gets it as --now, so that no
# result depends on when the test runs.
now=2026-05-04T17:00:00Z
work=$(mktemp -d)
sim_pid=""
cleanup() {
  [ -n "${keep_outputs:-}" ] && cp "$work"/*.out "$keep_outputs"/ 2>/dev/null || true
  [ -n "$sim_pid" ] && kill "$sim_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

start_sim() {
  [ -n "$sim_pid" ] && { kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; }
  rm -f "$work/sim.out"
  "$bin/relayhud-sim" --port 0 --seed 1 --now "$now" "$@" >"$work/sim.out" 2>"$work/sim.err" &
  sim_pid=$!
  for _ in $(seq 200); do
    [ -s "$work/sim.out" ] && [ "$(wc -l <"$work/sim.out")" -ge 3 ] && break
    sleep 0.05
  done
  local first
  first=$(head -n1 "$work/sim.out")
  [[ $first =~ ^listening\ on\ (http://127\.0\.0\.1:[0-9]+)$ ]] || fail "sim printed '$first'"
  url=${BASH_REMATCH[1]}
  api=$(sed -n 2p "$work/sim.out" | awk '{ print $NF }')
  s3=$(sed -n 3p "$work/sim.out" | awk '{ print $NF }')
  [[ $api == "$url"/* ]] || fail "sim printed: $(cat "$work/sim.out")"
}
