#!/usr/bin/env bash
# End to end: relayhud-sim and relayhud-cli over loopback HTTP: sync, fetch
# the failed runs' artifacts and job logs, then `suggest` the failure classes.
# usage: cli_suggest_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"

start_sim

cli() { "$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" "$@"; }

echo "== bad arguments exit 2 with one line"
for args in "" "--failed --sha abc" "--limit" "--failed --days -1" "--failed --bogus 1"; do
  set +e
  # shellcheck disable=SC2086
  cli suggest $args >/dev/null 2>"$work/err"; rc=$?
  set -e
  [ $rc -eq 2 ] || fail "suggest $args: exit $rc"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "suggest $args: $(cat "$work/err")"
done

echo "== sync and artifacts (with the failed runs' job logs)"
cli sync --hud "$url" --days 30 >/dev/null || fail "sync"
set +e
cli suggest --check-run 1 >/dev/null 2>"$work/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "unknown check run: exit $rc"
grep -q 'no check run with id 1' "$work/err" || fail "unknown check run: $(cat "$work/err")"
GITHUB_TOKEN=ghs_relayhudSimulatorToken0000000000 AWS_ACCESS_KEY_ID=RELAYHUDSIMULATOR \
  AWS_SECRET_ACCESS_KEY=relayhud/simulator/secret \
  cli artifacts --github-api "$api" --s3-endpoint "$s3" --days 30 --max-runs 200 >"$work/out" ||
  fail "artifacts: $(cat "$work/out")"
cat "$work/out"
grep -Eq '^read the job logs of [1-9][0-9]* failed runs: [1-9][0-9]* with a failure line' \
  "$work/out" || fail "no job failure line picked"

echo "== suggest --failed: one line per failure, CLASS TAB ID TAB JOB TAB TEST TAB WHY"
cli suggest --failed --no-expected >"$work/all" || fail "suggest --failed"
tail -n1 "$work/all"
grep -Eq '^# [1-9][0-9]* suggestions for [1-9][0-9]* runs: ' "$work/all" || fail "no summary"
classes='regression|pre-existing|flaky|infra|backend bug|test or config|unexpected pass|untriaged'
bad=$(grep -v '^#' "$work/all" | awk -F'\t' -v re="^($classes)\$" 'NF != 5 || $1 !~ re' | head -n3)
[ -z "$bad" ] || fail "malformed lines: $bad"
for cls in regression pre-existing flaky infra; do
  grep -q "^$cls"$'\t' "$work/all" || fail "no $cls suggestion"
done
grep -q $'\t(job)\t' "$work/all" || fail "no job-level suggestion"
if grep -q '^expected'$'\t' "$work/all"; then fail "--no-expected listed xfailed tests"; fi

echo "== --format tsv: CLASS TAB CHECK_RUN_ID TAB TEST TAB WHY, the same classes"
cli suggest --failed --no-expected --format tsv >"$work/tsv" || fail "suggest --format tsv"
bad=$(awk -F'\t' 'NF != 4 || $1 !~ /^[a-z-]+$/ || $2 !~ /^[0-9]+$/' "$work/tsv" | head -n3)
[ -z "$bad" ] || fail "malformed tsv lines: $bad"
[ "$(grep -c . "$work/tsv")" -eq "$(grep -vc '^#' "$work/all")" ] || fail "tsv and text differ in count"
# The same classes as the text, spelled as slugs ("backend bug" -> "backend-bug").
text_classes=$(grep -v '^#' "$work/all" | cut -f1 | tr ' ' '-' | sort | uniq -c)
tsv_classes=$(cut -f1 "$work/tsv" | sort | uniq -c)
[ "$text_classes" = "$tsv_classes" ] || fail "tsv classes differ: $tsv_classes vs $text_classes"

echo "== a regression: compared with other PRs' runs of the job, never a compare across PRs"
id=$(awk -F'\t' '$1 == "regression" && $4 != "(job)" && $5 ~ /this PR.s regression$/ { print $2; exit }' "$work/all")
cli suggest --check-run "$id" --evidence >"$work/one" || fail "suggest --check-run $id"
grep -Eq $'^regression\t'"$id"$'\t.*: this PR\'s regression$' "$work/one" ||
  fail "regression line: $(grep -v '^expected\|^    outcome' "$work/one" | head -n3)"
grep -Eq '^    other PRs: fails on [0-9]+ of [0-9]+ runs within 24 h$' "$work/one" ||
  fail "no other PRs' evidence: $(grep -v '^expected\|^    outcome' "$work/one" | head -n6)"
grep -Eq '^    (previous head: .* (passed|failed|error)( https://github\.com/pytorch/pytorch/compare/[0-9a-f]{40}\.\.\.[0-9a-f]{40})?|no previous head: .*)$' \
  "$work/one" || fail "no previous head evidence: $(grep -v '^expected\|^    outcome' "$work/one" | head -n8)"
# A compare link only ever joins two heads of one PR (previous head evidence).
if grep -E 'compare/' "$work/one" | grep -vq '^    previous head: '; then
  fail "a compare link outside the PR's own heads: $(grep compare/ "$work/one")"
fi

echo "== already broken upstream: the breakage, where it was first seen, the likely culprit"
id=$(awk -F'\t' '$1 == "pre-existing" && $4 != "(job)" && $5 ~ /already broken upstream, likely by #/ { print $2; exit }' "$work/all")
cli suggest --check-run "$id" --evidence >"$work/pre" || fail "suggest --check-run $id"
grep -Eq $'^pre-existing\t'"$id"$'\t.*\t[0-9]+ runs of [0-9]+ PRs and nightlies fail it since .*: already broken upstream' \
  "$work/pre" || fail "pre-existing line: $(grep -v '^expected\|^    outcome' "$work/pre" | head -n3)"
grep -Eq '^    breakage: since [0-9T:Z-]+, [0-9]+ runs of [0-9]+ PRs and nightlies; first seen .*; culprit #[0-9]+ https://github\.com/pytorch/pytorch/pull/[0-9]+/files$' \
  "$work/pre" || fail "no breakage evidence: $(grep -v '^expected\|^    outcome' "$work/pre" | head -n6)"

echo "== infra: the failure line's rule"
id=$(awk -F'\t' '$1 == "infra" && $4 == "(job)" { print $2; exit }' "$work/all")
cli suggest --check-run "$id" --evidence >"$work/infra" || fail "suggest --check-run $id"
grep -Eq "^    failure line: line [0-9]+ rule '[^']+' \\(infra\\): " "$work/infra" ||
  fail "no failure line evidence: $(cat "$work/infra")"

echo "== suggest --sha SHA: only that SHA's runs"
sha=$(cli matrix --format tsv | sed -n 2p | cut -f1)
cli suggest --sha "$sha" >"$work/sha" || fail "suggest --sha $sha"
tail -n1 "$work/sha" | grep -Eq '^# [0-9]+ suggestions for [0-9]+ runs' || fail "suggest --sha: $(tail -n1 "$work/sha")"

echo "all suggest e2e checks passed"
