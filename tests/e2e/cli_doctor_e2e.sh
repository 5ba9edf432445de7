#!/usr/bin/env bash
# End to end: relayhud-cli doctor on pytorch/crcr-test's L2 workflow (the
# corpus) and on a copy with a mistake planted: the tsv format (four fields,
# an integer line, one line per finding), exit statuses, and refusals.
# usage: cli_doctor_e2e.sh BIN_DIR CORPUS_DIR
set -euo pipefail
bin=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cli() { "$bin/relayhud-cli" "$@"; }
workflow="$corpus/workflows/pytorch__crcr-test__.github__workflows__oot-l2-ci.yml"

# The corpus: no error, so exit 0; every line is SEVERITY TAB CHECK TAB LINE TAB MESSAGE.
cli doctor --format tsv --workflow "$workflow" >"$work/corpus.tsv" || fail "exit $? on the corpus"
[ -s "$work/corpus.tsv" ] || fail "no findings at all on the corpus (it pins @main)"
awk -F'\t' 'NF != 4 || $1 !~ /^(error|warning|info)$/ || $3 !~ /^[0-9]+$/ { bad = 1; print "bad line: " $0 }
            END { exit bad }' "$work/corpus.tsv" || fail "tsv lines are not SEVERITY, CHECK, LINE, MESSAGE"
! grep -q '^error' "$work/corpus.tsv" || fail "an error on the corpus: $(grep '^error' "$work/corpus.tsv")"
grep -q $'^warning\taction-pinned\t' "$work/corpus.tsv" || fail "@main not reported"

# A completed callback that no longer runs on failure: an error, exit 1.
sed '/id: completed/{n;/if: always()/d}' "$workflow" >"$work/planted.yml"
cmp -s "$workflow" "$work/planted.yml" && fail "the plant changed nothing"
status=0
cli doctor --format tsv --workflow "$work/planted.yml" >"$work/planted.tsv" || status=$?
[ "$status" = 1 ] || fail "exit $status with an error found"
grep -q $'^error\tcallback-always\t' "$work/planted.tsv" || fail "callback-always not reported"

# Text: FILE:LINE: severity: [check] message, a fix line, then a summary.
cli doctor --workflow "$workflow" >"$work/corpus.txt" || fail "text format failed"
grep -q ": warning: \[action-pinned\] " "$work/corpus.txt" || fail "no text finding"
grep -q "^    fix: " "$work/corpus.txt" || fail "no fix line"
tail -1 "$work/corpus.txt" | grep -q ": 0 errors, 4 warnings, 0 notes (2 callback steps in 2 jobs)$" ||
  fail "summary: $(tail -1 "$work/corpus.txt")"

# --checks lists every check with its fact.
[ "$(cli doctor --checks | wc -l)" -ge 12 ] || fail "--checks lists fewer than 12 checks"

# Refusals: no file, not a workflow, a folder, an unknown format.
status=0; cli doctor 2>"$work/err" || status=$?
[ "$status" = 2 ] || fail "no --workflow: exit $status"
printf 'name: x\n' >"$work/not.yml"
status=0; cli doctor --workflow "$work/not.yml" 2>"$work/err" || status=$?
[ "$status" = 2 ] && grep -q "not a workflow" "$work/err" || fail "not a workflow: exit $status, $(cat "$work/err")"
status=0; cli doctor --workflow "$work" 2>"$work/err" || status=$?
[ "$status" = 2 ] || fail "a folder: exit $status"
status=0; cli doctor --format json --workflow "$workflow" 2>"$work/err" || status=$?
[ "$status" = 2 ] || fail "--format json: exit $status"
echo "ok: doctor"
