#!/usr/bin/env bash
# End to end: human triage with the real binaries. Sync from relayhud-sim and
# fetch test results, tag a clustered failure and its job, export, import into
# a fresh cache (the same tags), re-import (unchanged), a newer local tag wins
# a conflict, and a bad file changes nothing.
# usage: cli_triage_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"

start_sim

cli() { "$bin/relayhud-cli" --now "$now" --cache "$work/a.sqlite" "$@"; }
fresh() { "$bin/relayhud-cli" --now "$now" --cache "$work/b.sqlite" "$@"; }
# Five minutes on: every process starts its clock at --now, so an edit that
# must be the newer one is made at a later instant.
later() { "$bin/relayhud-cli" --now 2026-05-04T17:05:00Z --cache "$work/a.sqlite" "$@"; }

echo "== sync and fetch the failed runs' test results"
cli sync --hud "$url" --days 30 >/dev/null || fail "sync"
GITHUB_TOKEN=ghs_relayhudSimulatorToken0000000000 AWS_ACCESS_KEY_ID=RELAYHUDSIMULATOR \
  AWS_SECRET_ACCESS_KEY=relayhud/simulator/secret \
  cli artifacts --github-api "$api" --s3-endpoint "$s3" --max-runs 40 >/dev/null ||
  fail "artifacts"

echo "== clusters name their members"
cli triage clusters --limit 3 --members 1 >"$work/clusters"
cat "$work/clusters"
grep -Eq '^[0-9]+ failing tests in [0-9]+ clusters$' "$work/clusters" || fail "clusters header"
member=$(grep -m1 '^  member ' "$work/clusters") || fail "no cluster member listed"
read -r _ check_run test <<<"$member"
[ -n "$check_run" ] && [ -n "$test" ] || fail "member line '$member'"
grep -q '\[untriaged\]' "$work/clusters" || fail "nothing untriaged before tagging"

echo "== set tags on a test and on its job"
RELAYHUD_AUTHOR=e2e-bot cli triage set --check-run "$check_run" --test "$test" --class flaky \
  --note "seen on rerun" --bug https://github.com/org/repo/issues/1 >"$work/set1"
grep -q 'flaky  "seen on rerun"  https://github.com/org/repo/issues/1  (e2e-bot, ' "$work/set1" ||
  fail "set: $(cat "$work/set1")"
cli triage set --check-run "$check_run" --class infra --author alice >/dev/null || fail "job tag"
cli triage list >"$work/list-a"
[ "$(grep -c '^  ' "$work/list-a")" -eq 2 ] || fail "list: $(cat "$work/list-a")"
grep -q '(job)' "$work/list-a" || fail "no job tag listed"

echo "== a bad class and an unknown check run exit 2 and 1 with one line"
set +e
cli triage set --check-run "$check_run" --class flakey 2>"$work/err"; rc=$?
set -e
[ $rc -eq 2 ] || fail "bad class exit $rc"
grep -q "unknown class 'flakey'" "$work/err" || fail "bad class: $(cat "$work/err")"
set +e
cli triage set --check-run 424242 --class flaky 2>"$work/err"; rc=$?
set -e
[ $rc -eq 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] || fail "unknown check run: rc $rc $(cat "$work/err")"

echo "== export, then import into a fresh cache: the same tags"
cli triage export "$work/tags.json" >"$work/export.out"
grep -q 'exported 2 tags' "$work/export.out" || fail "export: $(cat "$work/export.out")"
grep -q '"format": "relayhud-triage", "version": 1' "$work/tags.json" || fail "format header"
grep -Eq '"time":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\.[0-9]{3}Z"' "$work/tags.json" ||
  fail "time format: $(cat "$work/tags.json")"
fresh triage import "$work/tags.json" >"$work/import1"
grep -q '^added 2, updated 0, unchanged 0, kept local 0, conflicts 0$' "$work/import1" ||
  fail "import: $(cat "$work/import1")"
fresh triage list >"$work/list-b"
diff "$work/list-a" "$work/list-b" || fail "round trip differs"
fresh triage import "$work/tags.json" | grep -q '^added 0, updated 0, unchanged 2,' ||
  fail "re-import changed something"

echo "== the newer tag wins a conflict, either way"
fresh triage set --check-run "$check_run" --class regression --author bob 2>"$work/err" &&
  fail "the fresh cache has no runs: set must refuse"
grep -q "no check run with id $check_run" "$work/err" || fail "$(cat "$work/err")"
later triage set --check-run "$check_run" --test "$test" --class regression --author bob >/dev/null
cli triage export "$work/newer.json" >/dev/null
fresh triage import "$work/newer.json" >"$work/import2"
grep -q '^added 0, updated 1, unchanged 1, kept local 0, conflicts 1$' "$work/import2" ||
  fail "import newer: $(cat "$work/import2")"
grep -q 'imported wins: imported is newer' "$work/import2" || fail "$(cat "$work/import2")"
cli triage import "$work/tags.json" >"$work/import3"
grep -q '^added 0, updated 0, unchanged 1, kept local 1, conflicts 1$' "$work/import3" ||
  fail "import older: $(cat "$work/import3")"
grep -q 'local wins: local is newer' "$work/import3" || fail "$(cat "$work/import3")"

echo "== a bad file is named and changes nothing"
printf '{"format": "relayhud-triage", "version": 1, "tags": [\n  {"repo": "x"}\n]}\n' >"$work/bad.json"
set +e
fresh triage import "$work/bad.json" 2>"$work/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "bad file exit $rc"
grep -q 'tag 0: "workflow" is missing' "$work/err" || fail "bad file: $(cat "$work/err")"
fresh triage list >"$work/list-c"
[ "$(grep -c '^  ' "$work/list-c")" -eq 2 ] || fail "a bad file changed the cache"

echo "== clusters show the tag"
cli triage clusters --limit 50 >"$work/clusters2"
grep -Eq '\[(regression|mixed)\]' "$work/clusters2" || fail "no tagged cluster: $(cat "$work/clusters2")"

echo "all triage e2e checks passed"
