#!/usr/bin/env bash
# End to end: a busy backend against a simulator with the real HUD's limits
# (../shared/specs/hud-read-api.md R1, R2, R10): answers over 4.5 MB are a 500,
# the allowlist fails after its first answer, one PR's title cannot be read.
# Two syncs must each complete with every row a sync without faults gets, and
# say what they worked around.
# usage: cli_hud_limits_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"

cli() { local cache=$1; shift; "$bin/relayhud-cli" --now "$now" --cache "$work/$cache.sqlite" "$@"; }
stat_of() { cli "$1" stats | awk -v k="$2" '$1 == k { print $2 }'; }

echo "== reference: the busy world without faults"
start_sim --jobs-scale 4
cli clean sync --hud "$url" --days 7 >"$work/clean.out" || fail "clean sync: $(cat "$work/clean.out")"
cli clean matrix --format tsv --limit 100000 >"$work/clean.tsv"
runs=$(stat_of clean check_runs); commits=$(stat_of clean commits)
echo "clean: $runs check runs, $commits commits"
[ "$runs" -gt 5000 ] || fail "a busy world should have thousands of runs, got $runs"
grep -q '^relay ' "$work/clean.out" || fail "no relay health line: $(cat "$work/clean.out")"

echo "== the same world behind the HUD's limits"
start_sim --jobs-scale 4 --max-response-bytes 4500000 --allowlist-fail-after 1
cli faulty sync --hud "$url" --days 7 >"$work/first.out" 2>"$work/first.err" ||
  fail "first sync: $(cat "$work/first.out" "$work/first.err")"
grep -q 'worked around: .*the HUD answered 500.*per page' "$work/first.out" ||
  fail "the first sync did not say it halved a page: $(cat "$work/first.out")"
cli faulty sync --hud "$url" --days 7 >"$work/second.out" 2>"$work/second.err" ||
  fail "second sync: $(cat "$work/second.out" "$work/second.err")"
grep -q 'worked around: the allowlist failed (the HUD answered 502' "$work/second.out" ||
  fail "the second sync did not say it used the cached allowlist: $(cat "$work/second.out")"
[ "$(stat_of faulty check_runs)" -eq "$runs" ] || fail "check runs $(stat_of faulty check_runs) != $runs"
[ "$(stat_of faulty commits)" -eq "$commits" ] || fail "commits $(stat_of faulty commits) != $commits"
cli faulty matrix --format tsv --limit 100000 >"$work/faulty.tsv"
diff -q "$work/clean.tsv" "$work/faulty.tsv" >/dev/null ||
  fail "the matrix differs from the clean sync's: $(diff "$work/clean.tsv" "$work/faulty.tsv" | head -5)"
echo "ok: $runs check runs and the same matrix through a 4.5 MB cap and a failing allowlist"
