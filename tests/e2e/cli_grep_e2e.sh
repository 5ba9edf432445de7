#!/usr/bin/env bash
# End to end: relayhud-cli grep against GNU grep on the same generated
# GitHub Actions style log (timestamps, groups, ANSI colours, pytest lines,
# failure sections): output and exit status must be byte-identical, for plain
# and gzipped input; errors exit with 2 and say why on stderr.
# usage: cli_grep_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cli() { "$bin/relayhud-cli" --cache "$work/cache.sqlite" grep "$@"; }

log="$work/job.log"
awk 'BEGIN {
  esc = sprintf("%c", 27)
  for (i = 0; i < 20000; i++) {
    ts = sprintf("2026-07-29T23:%02d:%02d.%07dZ ", int(i / 60) % 60, i % 60, (i * 7919) % 10000000)
    if (i % 400 == 0) { print ts "##[group]Run test shard " i / 400; continue }
    if (i % 400 == 1) { print ts esc "[36;1mpython test/run_test.py --shard " i esc "[0m"; continue }
    if (i % 400 == 399) { print ts "##[endgroup]"; continue }
    if (i % 997 == 5) {
      print ts "____________ TestFoo.test_case_" i " ____________"
      print ts "Traceback (most recent call last):"
      print ts "  File \"test/test_foo.py\", line " i ", in test_case_" i
      print ts "AssertionError: Tensor-likes are not close!"
      print ts "FAILED test/test_foo.py::TestFoo::test_case_" i " - AssertionError"
      continue
    }
    printf "%stest_foo.py::TestFoo::test_case_%d %s [0.%04ds] [ %d%%]\n", ts, i, (i % 7 ? "PASSED" : esc "[32mPASSED" esc "[0m"), i % 10000, i % 100
  }
  printf "2026-07-29T23:59:59.0000000Z last line without a newline"
}' >"$log"

compare() { # GREP-ARGS...: same stdout and exit status as grep
  local ours=0 theirs=0
  cli "$@" "$log" >"$work/ours" 2>"$work/err" || ours=$?
  grep "$@" "$log" >"$work/theirs" || theirs=$?
  [ "$ours" = "$theirs" ] || fail "grep $*: exit $ours, grep says $theirs ($(cat "$work/err"))"
  cmp -s "$work/ours" "$work/theirs" || {
    diff "$work/ours" "$work/theirs" | head -5 >&2
    fail "grep $*: output differs from grep's"
  }
}

echo "== output equals grep's"
n=0
while read -r line; do
  eval "set -- $line"
  compare "$@"
  n=$((n + 1))
done <<'EOF'
-E PASSED
-E -c PASSED
-F -c FAILED
-F -n Tensor-likes
-E -n -C2 FAILED
-E -n -A1 -B3 Traceback
-E -A3 '^2026-07-29T23:0.:..\.[0-9]*Z.____'
-E -B 2 -n endgroup
-E -C 0 -n AssertionError
-E -C5 -n 'case_1[0-9]{3}\b'
-F -i -n -C1 tensor-LIKES
-E -i -c failed
-E -n -e -likes
-F -n a.b
-E -c '^$'
-E -n 'without.a.newline$'
-E -n 32mPASSED
-E -c -A2 -B2 Traceback
-E -n '(case_42|case_4242)\b'
-F -n no-such-text-anywhere
EOF
echo "   $n option sets"

echo "== .gz input"
gzip -c "$log" >"$work/job.log.gz"
ours=$(cli -n -C1 FAILED "$work/job.log.gz")
theirs=$(grep -n -C1 FAILED "$log")
[ "$ours" = "$theirs" ] || fail ".gz output differs from grep's on the plain file"
ls "$work"/blobs/logs/*.log >/dev/null 2>&1 || fail "the .gz was not decompressed into the cache"

echo "== errors exit with 2 and say why"
status=0
cli '(unclosed' "$log" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "a bad regex exits $status"
grep -q "invalid regular expression" "$work/err" || fail "no reason for a bad regex: $(cat "$work/err")"
status=0
cli x "$work/missing.log" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "a missing file exits $status"
grep -q "missing.log" "$work/err" || fail "no reason for a missing file: $(cat "$work/err")"
printf '\037\213garbage' >"$work/bad.gz"
status=0
cli x "$work/bad.gz" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "a corrupt .gz exits $status"
grep -q "not a valid gzip file" "$work/err" || fail "no reason for a corrupt .gz: $(cat "$work/err")"
status=0
cli -A x FAILED "$log" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "a bad -A exits $status"
# A FIFO (no writer) used to block open() for good: now one line at once.
mkfifo "$work/pipe.log"
status=0
timeout 10 "$bin/relayhud-cli" --cache "$work/cache.sqlite" grep x "$work/pipe.log" \
  2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "a FIFO exits $status (124: it blocked)"
[ "$(wc -l <"$work/err")" = 1 ] || fail "a FIFO's error is not one line: $(cat "$work/err")"
grep -q "pipe.log is a FIFO, not a regular file" "$work/err" ||
  fail "no reason for a FIFO: $(cat "$work/err")"

echo "cli grep e2e: ok"
