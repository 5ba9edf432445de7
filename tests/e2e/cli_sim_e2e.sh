#!/usr/bin/env bash
# End to end: the real relayhud-sim and relayhud-cli binaries over loopback HTTP.
# usage: cli_sim_e2e.sh BIN_DIR VERSION
set -euo pipefail
bin=$1
version=$2
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"

cli() { "$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" "$@"; }
stat_of() { cli stats | awk -v k="$1" '$1 == k { print $2 }'; }

echo "== smoke: --help and --version of each binary"
"$bin/relayhud-cli" --help >"$work/h1" && grep -q 'usage: relayhud-cli' "$work/h1" || fail "cli --help"
[ "$("$bin/relayhud-cli" --version)" = "relayhud-cli $version" ] || fail "cli --version is not the project's $version"
# Every command of the table has its usage in --help and under help COMMAND.
for command in sync artifacts matrix stats import tests grep classify classify-accuracy config \
    verdict report triage suggest attribution-accuracy; do
    grep -q "^  $command " "$work/h1" || fail "--help lacks $command"
    "$bin/relayhud-cli" help "$command" >"$work/h4" || fail "help $command"
    grep -q "^  $command " "$work/h4" || fail "help $command prints no usage"
done
[ "$("$bin/relayhud-cli" help config | grep -c '^  ')" -gt 5 ] || fail "help config is cut"
"$bin/relayhud-cli" help grep >"$work/h5"
! grep -q '^  sync ' "$work/h5" || fail "help grep prints other commands"
set +e
"$bin/relayhud-cli" help frobnicate 2>"$work/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q "no command 'frobnicate' (one of sync, artifacts" "$work/err" || fail "help of an unknown command: exit $rc, $(cat "$work/err")"
"$bin/relayhud-sim" --help >"$work/h3" && grep -qi 'usage' "$work/h3" || fail "sim --help"

echo "== bad arguments exit 2 with one line"
set +e
"$bin/relayhud-cli" frobnicate 2>"$work/err"; rc=$?
set -e
[ $rc -eq 2 ] || fail "unknown command exit $rc"
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "unknown command: more than one line of error"
set +e
"$bin/relayhud-sim" --port nope 2>/dev/null; rc=$?
set -e
[ $rc -eq 2 ] || fail "sim bad flag exit $rc"
# attribution-accuracy: an unknown format, and a truth file that is no truth.
set +e
"$bin/relayhud-cli" --cache "$work/none.sqlite" attribution-accuracy --truth /dev/null \
  --format xml 2>"$work/err"; rc=$?
set -e
[ $rc -eq 2 ] && grep -q -- '--format must be text or tsv' "$work/err" || fail "attribution-accuracy --format xml: exit $rc, $(cat "$work/err")"
printf '{"check_run_id": 7}\n' >"$work/bad-truth.jsonl"
set +e
"$bin/relayhud-cli" --cache "$work/none.sqlite" attribution-accuracy --truth "$work/bad-truth.jsonl" \
  --format tsv >"$work/out" 2>"$work/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'bad-truth.jsonl:1: not a truth line' "$work/err" && [ ! -s "$work/out" ] || fail "a bad truth line: exit $rc, $(cat "$work/err")"

echo "== sync fills the cache"
start_sim
cli sync --hud "$url" --days 30 || fail "sync"
b=$(stat_of backends); c=$(stat_of commits); r=$(stat_of check_runs)
echo "backends $b commits $c check_runs $r"
[ "$b" -ge 5 ] || fail "backends $b < 5"
# Push rows (ciflow tags included) reach no row query (pr_number 0, the
# delivery GUID as SHA), so the cache holds PR heads and nightlies only.
[ "$c" -ge 150 ] || fail "commits $c < 150"
[ "$r" -ge 2000 ] || fail "check_runs $r < 2000"

echo "== matrix in both formats"
cli matrix --format tsv >"$work/m.tsv"
head -n1 "$work/m.tsv" | grep -q $'^sha\tpr\tbranch\tevent\ttime\t' || fail "tsv header"
[ "$(wc -l <"$work/m.tsv")" -gt 150 ] || fail "tsv rows" # one per PR head and nightly
cli matrix --format text >"$work/m.txt"
grep -q 'legend:' "$work/m.txt" || fail "text matrix"

echo "== a failing HUD leaves the cache unchanged, with a one-line reason"
start_sim --error-rate 1
set +e
cli sync --hud "$url" --days 30 2>"$work/err"; rc=$?
set -e
[ $rc -ne 0 ] || fail "sync against a failing HUD succeeded"
grep -q '500' "$work/err" || fail "no status in: $(cat "$work/err")"
[ "$(stat_of check_runs)" -eq "$r" ] || fail "cache changed by a failed sync"

echo "== an unreachable HUD"
kill "$sim_pid"; wait "$sim_pid" 2>/dev/null || true; sim_pid=""
set +e
cli sync --hud "$url" --days 30 2>"$work/err"; rc=$?
set -e
[ $rc -ne 0 ] || fail "sync against a dead HUD succeeded"
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "more than one line: $(cat "$work/err")"

echo "== a healthy HUD again: the next sync recovers"
start_sim
cli sync --hud "$url" --days 30 >/dev/null || fail "recovery sync"
[ "$(stat_of check_runs)" -eq "$r" ] || fail "recovery sync changed the count"
echo "== artifacts: a missing token is named, then the test results of failed runs are fetched"
api=$(sed -n 2p "$work/sim.out" | awk '{ print $NF }')
s3=$(sed -n 3p "$work/sim.out" | awk '{ print $NF }')
[[ $api == "$url"/* && $s3 == "$url"/* ]] || fail "sim printed no store endpoints: $(cat "$work/sim.out")"
set +e
env -u GITHUB_TOKEN -u GH_TOKEN -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY \
  "$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" artifacts --github-api "$api" \
  --s3-endpoint "$s3" --max-runs 10 >"$work/out" 2>"$work/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "artifacts without tokens exit $rc"
grep -q 'GITHUB_TOKEN' "$work/err" || fail "no setting named in: $(cat "$work/err")"
GITHUB_TOKEN=ghs_relayhudSimulatorToken0000000000 AWS_ACCESS_KEY_ID=RELAYHUDSIMULATOR \
  AWS_SECRET_ACCESS_KEY=relayhud/simulator/secret \
  cli artifacts --github-api "$api" --s3-endpoint "$s3" --max-runs 20 >"$work/out" ||
  fail "artifacts with tokens: $(cat "$work/out")"
cat "$work/out"
grep -Eq '^fetched test results of [0-9]+ runs: [1-9][0-9]* stored' "$work/out" || fail "nothing stored"
[ "$(stat_of test_results)" -gt 1000 ] || fail "test_results $(stat_of test_results)"
# Test run ids are not dense (a refused run's row is replaced when it is
# fetched), so walk past the count and skip the ids that are gone.
failing=0
for run in $(seq 1 $(($(stat_of test_runs) * 3))); do
  n=$( (cli tests --test-run "$run" --outcome failed --outcome error 2>/dev/null || true) | wc -l)
  failing=$((failing + n))
done
echo "failing tests listed: $failing"
[ "$failing" -gt 0 ] || fail "no failing test in the failed runs' results"

echo "all e2e checks passed"
