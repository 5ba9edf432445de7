#!/usr/bin/env bash
# End to end: relayhud-cli classify and classify-accuracy over the real
# corpus (pytorch's ruleset.toml must agree on every fixture; the default
# rules' figure is printed) and over small hand-made logs: output format,
# exit statuses, bad rules reported by file and line while the rest loads.
# usage: cli_classify_e2e.sh BIN_DIR CORPUS_DIR
set -euo pipefail
bin=$1
corpus=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cli() { "$bin/relayhud-cli" "$@"; }
ts="2026-07-29T23:58:10.4613408Z"

# Accuracy: pytorch's rules agree on 100% of the fixtures.
cli classify-accuracy --rules "$corpus/rules/ruleset.toml" --min 100 "$corpus/logs" \
  >"$work/pytorch.txt" 2>"$work/pytorch.err" || fail "pytorch rules below 100%: $(tail -1 "$work/pytorch.txt")"
grep -q "^agreement: .* (100.0%) with 102 rules$" "$work/pytorch.txt" || fail "no 100% line: $(tail -1 "$work/pytorch.txt")"
fixtures=$(find "$corpus/logs" -maxdepth 1 -type f | wc -l)
[ "$(grep -c '^ok' "$work/pytorch.txt")" = "$fixtures" ] || fail "not every fixture ok"
echo "pytorch rules: $(tail -1 "$work/pytorch.txt")"

# The default rules: the figure is printed; the floor is the issue's 85%.
cli classify-accuracy --min 85 "$corpus/logs" >"$work/default.txt" || fail "default rules below 85%: $(tail -1 "$work/default.txt")"
echo "default rules: $(tail -1 "$work/default.txt")"

# classify on each fixture, marks stripped, gives the marked line.
for f in "$corpus"/logs/*; do
  sed -e '/^#=SOURCE=#/d' "$f" >"$work/raw.log"
  expected=$(grep -n '^#=MATCH=# ' "$work/raw.log" | cut -d: -f1 || true)
  sed -i -e 's/^#=MATCH=# //' -e 's/\xe2\x80\xb9//g' -e 's/\xe2\x80\xba//g' "$work/raw.log"
  status=0
  cli classify --rules "$corpus/rules/ruleset.toml" "$work/raw.log" >"$work/out" 2>/dev/null || status=$?
  if [ -z "$expected" ]; then
    [ "$status" = 1 ] && [ "$(cat "$work/out")" = "no match" ] || fail "$f: expected no match"
  else
    [ "$status" = 0 ] || fail "$f: exit $status"
    [ "$(cut -f1 "$work/out")" = "$expected" ] || fail "$f: line $(cut -f1 "$work/out"), expected $expected"
  fi
done

# Output format: LINE<TAB>RULE<TAB>captures; priority, last match, dropped lines.
cat >"$work/rules.toml" <<'RULES'
[[rule]]
name = 'Test failed'
pattern = '^FAILED (\S+) - (\w+)'

[[rule]]
name = 'Any error'
pattern = '^##\[error\].*'
RULES
{
  echo "$ts ##[error]generic trouble"
  echo "$ts FAILED a.py::test_one - RuntimeError: first"
  echo "$ts FAILED a.py::test_two - ValueError: second"
  echo "$ts =================== sccache compilation log ==================="
  echo "$ts FAILED hidden.py::in_sccache_log - OSError"
  echo "$ts =========== If your build fails, please take a look at the log above for possible reasons ==========="
  printf '%s \033[31m##[error]Process completed with exit code 1.\033[0m\n' "$ts"
} >"$work/job.log"
out=$(cli classify --rules "$work/rules.toml" "$work/job.log")
[ "$out" = "$(printf '3\tTest failed\ta.py::test_two | ValueError')" ] || fail "classify said: $out"

# No match: prints it, exits 1.
echo "$ts all good" >"$work/green.log"
status=0
out=$(cli classify --rules "$work/rules.toml" "$work/green.log") || status=$?
[ "$status" = 1 ] && [ "$out" = "no match" ] || fail "no match: exit $status, '$out'"

# Default rules without --rules.
echo "$ts OSError: [Errno 28] No space left on device" >"$work/disk.log"
out=$(cli classify "$work/disk.log")
[ "$(cut -f1,2 <<<"$out")" = "$(printf '1\tDisk full')" ] || fail "default rules said: $out"

# Bad rules are named with file and line; the good ones still classify.
cat >"$work/bad.toml" <<'RULES'
[[rule]]
name = 'ahead'
pattern = 'x(?=y)'

[[rule]]
name = 'Test failed'
pattern = '^FAILED (\S+)'
RULES
cli classify --rules "$work/bad.toml" "$work/job.log" >"$work/out" 2>"$work/err" || fail "bad rules stopped classify"
grep -q "bad.toml:3: rule 'ahead': look-around" "$work/err" || fail "look-around not reported: $(cat "$work/err")"
[ "$(cut -f1 "$work/out")" = 3 ] || fail "good rule did not classify: $(cat "$work/out")"

# Trouble exits 2 with a reason.
status=0
cli classify --rules "$work/rules.toml" "$work/missing.log" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] && grep -q "missing.log" "$work/err" || fail "missing log: exit $status"
status=0
cli classify --rules "$work/nope.toml" "$work/job.log" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] && grep -q "nope.toml" "$work/err" || fail "missing rules: exit $status"
status=0
cli classify-accuracy "$work/empty-dir" 2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "missing fixture dir: exit $status"
# A FIFO (no writer) used to block open() for good: now one line at once.
mkfifo "$work/pipe.log"
status=0
timeout 10 "$bin/relayhud-cli" classify --rules "$work/rules.toml" "$work/pipe.log" \
  2>"$work/err" >/dev/null || status=$?
[ "$status" = 2 ] || fail "a FIFO: exit $status (124: it blocked)"
[ "$(wc -l <"$work/err")" = 1 ] || fail "a FIFO's error is not one line: $(cat "$work/err")"
grep -q "pipe.log is a FIFO, not a regular file" "$work/err" || fail "a FIFO: $(cat "$work/err")"
echo "PASS"
