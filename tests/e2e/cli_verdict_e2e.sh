#!/usr/bin/env bash
# End to end: verdicts and reports from the real binaries. relayhud-sim over
# loopback, relayhud-cli sync and artifacts, then verdict and report.
# The hidden-failure story (a self-reported green whose JUnit fails tests) must
# come out "green, disputed"; without a config no green is ever "verified".
# With the outcome configs relayhud-sim --write-configs generates, ordinary
# greens are "verified green" and the incomplete-green story (a test file not
# collected) is "green, incomplete".
# usage: cli_verdict_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"
cli() { "$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" "$@"; }

start_sim --commits 40

echo "== bad arguments exit 2"
set +e
cli verdict 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "verdict without --check-run exit $rc"
cli verdict --check-run 1 --config nonsense 2>"$work/err"; rc=$?
[ $rc -eq 2 ] && grep -q 'REPO=PATH' "$work/err" || fail "bad --config: $rc $(cat "$work/err")"
cli report --sha abc --format pdf 2>"$work/err"; rc=$?
[ $rc -eq 2 ] || fail "report --format pdf exit $rc"
set -e

echo "== sync and fetch the test results of every finished run"
cli sync --hud "$url" --days 30 >/dev/null || fail "sync"
GITHUB_TOKEN=ghs_relayhudSimulatorToken0000000000 AWS_ACCESS_KEY_ID=RELAYHUDSIMULATOR \
  AWS_SECRET_ACCESS_KEY=relayhud/simulator/secret \
  cli artifacts --github-api "$api" --s3-endpoint "$s3" --runs all --max-runs 100000 \
  --parallel 8 >"$work/artifacts.out" || fail "artifacts: $(tail -3 "$work/artifacts.out")"
tail -1 "$work/artifacts.out"

echo "== an unknown check run and an unknown SHA are one-line errors"
set +e
cli verdict --check-run no-such-run 2>"$work/err"; rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] || fail "unknown run: $rc $(cat "$work/err")"
cli report --sha 0000000000000000000000000000000000000000 2>"$work/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'no check runs' "$work/err" || fail "unknown sha: $rc $(cat "$work/err")"
set -e

echo "== a CSV report per upstream SHA"
cli matrix --format tsv | tail -n +2 | cut -f1 | sort -u >"$work/shas"
[ "$(wc -l <"$work/shas")" -gt 20 ] || fail "few SHAs in the matrix"
: >"$work/all.csv"
while read -r sha; do
  cli report --sha "$sha" --format csv | tail -n +2 >>"$work/all.csv"
done <"$work/shas"
echo "rows reported: $(wc -l <"$work/all.csv")"
grep -q ',verified green,' "$work/all.csv" && fail "a green was verified without any config"
grep -q ',"green, unverifiable",' "$work/all.csv" || fail "no unverifiable green"
grep ',"green, disputed",' "$work/all.csv" >"$work/disputed.csv" ||
  fail "the hidden-failure story's green was not disputed"
grep -Eq 'fails? in its JUnit|in the artifacts' "$work/disputed.csv" || fail "disputed without the artifacts' reason"
echo "disputed greens: $(wc -l <"$work/disputed.csv")"

echo "== verdict of a disputed run, and its Markdown report"
line=$(head -n1 "$work/disputed.csv")
sha=${line%%,*}
# The SHA, the check run id and the backend lead each row and hold no commas.
id=$(echo "$line" | cut -d, -f2)
cli verdict --check-run "$id" >"$work/verdict.txt" || fail "verdict exit $?"
cat "$work/verdict.txt" | head -20
grep -q '^verdict: green, disputed$' "$work/verdict.txt" || fail "verdict of $id"
grep -Eq '^  FAIL +counts +self-reported' "$work/verdict.txt" || fail "no failing counts check"
cli report --sha "$sha" --check-run "$id" --format md >"$work/report.md" || fail "report md"
grep -q '❗ green, disputed' "$work/report.md" || fail "report lacks the disputed verdict"
# Its failures, in a section by class ("### Others (45)").
grep -Eq '^### (Caused by this PR|Already broken upstream|Broken in the backend|Flaky|Infra|Others) \(' \
  "$work/report.md" ||
  fail "report lacks the failures"

echo "== a config that does not parse is named, never verified"
printf 'test_suite_config:\n  files: [\n' >"$work/broken.yaml"
repo=$(echo "$line" | cut -d, -f3)
cli verdict --check-run "$id" --config "$repo=$work/broken.yaml" >"$work/v2.txt"
grep -q 'does not parse' "$work/v2.txt" || fail "broken config not named: $(cat "$work/v2.txt")"

echo "== the simulator's outcome configs"
set +e
"$bin/relayhud-sim" --write-configs /proc/no-such-dir/configs >/dev/null 2>"$work/err"; rc=$?
[ $rc -eq 1 ] && grep -q 'cannot create the config folder' "$work/err" ||
  fail "unwritable config folder: $rc $(cat "$work/err")"
set -e
"$bin/relayhud-sim" --seed 1 --now "$now" --commits 40 --write-configs "$work/configs" >"$work/configs.tsv" ||
  fail "write-configs exit $?"
cat "$work/configs.tsv"
config_args=()
while IFS=$'\t' read -r repo path; do
  [ -s "$path" ] && grep -q '^test_suite_config:' "$path" || fail "no config at $path"
  config_args+=(--config "$repo=$path")
done <"$work/configs.tsv"
[ ${#config_args[@]} -ge 10 ] || fail "configs for only ${#config_args[@]} backends"

echo "== with them, ordinary greens are verified and the incomplete story is not"
: >"$work/configured.csv"
while read -r sha; do
  cli report --sha "$sha" --format csv "${config_args[@]}" | tail -n +2 >>"$work/configured.csv"
done <"$work/shas"
# A job's row is followed by rows for its failures and expected failures, each
# repeating the job's columns up to the verdict: count jobs by check run id
# (the SHA, the check run id and the backend hold no commas).
verified=$(grep ',verified green,' "$work/configured.csv" | cut -d, -f2 | sort -u | wc -l)
echo "verified greens: $verified"
[ "$verified" -ge 20 ] || fail "only $verified verified greens with the configs"
if grep -q 'the config does not account for' "$work/configured.csv"; then
  fail "a run has tests its backend's generated config does not account for"
fi
grep ',"green, incomplete",' "$work/configured.csv" >"$work/incomplete.csv" ||
  fail "the incomplete-green story was not flagged"
# The story is one job of one backend on a few commits.
[ "$(cut -d, -f3 "$work/incomplete.csv" | sort -u | wc -l)" -eq 1 ] ||
  fail "incomplete greens on several backends: $(cat "$work/incomplete.csv")"
incomplete=$(cut -d, -f2 "$work/incomplete.csv" | sort -u | wc -l)
echo "incomplete greens: $incomplete"
[ "$incomplete" -le 3 ] || fail "more incomplete greens than the story has"
id=$(head -n1 "$work/incomplete.csv" | cut -d, -f2)
cli verdict --check-run "$id" "${config_args[@]}" >"$work/v3.txt" || fail "verdict exit $?"
head -12 "$work/v3.txt"
grep -q '^verdict: green, incomplete$' "$work/v3.txt" || fail "verdict of $id"
grep -q 'did not run' "$work/v3.txt" || fail "no missing mandatory tests"
grep -Eq '^  pass +counts' "$work/v3.txt" || fail "the story's counts should agree"

echo "all verdict e2e checks passed"
