#!/usr/bin/env bash
# End to end: relayhud-cli import and tests on real files. Every JUnit report
# of the shared corpus (when present) and reports generated here, plain,
# gzipped and in a tarball; the counts the CLI prints and stores must match
# the reports' own <testsuite> attributes, read here with awk.
# usage: cli_import_e2e.sh BIN_DIR [CORPUS_DIR]
set -euo pipefail
bin=$1
corpus=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cli() { "$bin/relayhud-cli" --cache "$work/cache.sqlite" "$@"; }
stat_of() { cli stats | awk -v k="$1" '$1 == k { print $2 }'; }

# "tests failures errors skipped" summed over the <testsuite> tags of a file.
attributes() {
  tr '\n\r' '  ' <"$1" | grep -o '<testsuite[[:space:]][^>]*>' | awk '
    function attr(tag, name,   m) {
      if (match(tag, "[[:space:]]" name "=\"[0-9]+\"")) {
        m = substr(tag, RSTART, RLENGTH); gsub(/[^0-9]/, "", m); return m + 0
      }
      return 0
    }
    { t += attr($0, "tests"); f += attr($0, "failures"); e += attr($0, "errors"); s += attr($0, "skipped") }
    END { print t + 0, f + 0, e + 0, s + 0 }'
}

# The figures relayhud-cli printed for one report: counted, then declared.
printed() {
  sed -E 's/.*: tests ([0-9]+), failures ([0-9]+), errors ([0-9]+), skipped ([0-9]+)( \(the report declares tests ([0-9]+), failures ([0-9]+), errors ([0-9]+), skipped ([0-9]+)\))?$/\1 \2 \3 \4 \6 \7 \8 \9/' <<<"$1"
}

check_report_line() { # FILE LINE
  local t f e s ct cf ce cs dt df de ds cases
  read -r t f e s < <(attributes "$1")
  read -r ct cf ce cs dt df de ds < <(printed "$2")
  [ "$cf $ce $cs" = "$f $e $s" ] || fail "$1: printed '$2', attributes say $t $f $e $s"
  if [ -n "${dt:-}" ]; then
    [ "$dt $df $de $ds" = "$t $f $e $s" ] || fail "$1: declared figures '$2' vs $t $f $e $s"
  else
    [ "$ct" = "$t" ] || fail "$1: printed $ct tests, attributes say $t"
  fi
  cases=$(grep -o '<testcase[[:space:]]' "$1" | wc -l)
  [ "$ct" -eq "$cases" ] || fail "$1: printed $ct tests, the file has $cases <testcase> elements"
}

echo "== the corpus, one import per report"
total=0
if [ -n "$corpus" ] && [ -d "$corpus/junit" ]; then
  for f in "$corpus"/junit/*.xml; do
    before=$(stat_of test_results)
    cli import "$f" >"$work/out" 2>"$work/err" || fail "import $f: $(cat "$work/err")"
    line=$(head -n1 "$work/out")
    check_report_line "$f" "$line"
    grep -Eq '^imported 1 report, [0-9]+ test cases as test run [0-9]+ \(passed ' "$work/out" \
      || fail "no total line for $f: $(cat "$work/out")"
    cases=$(grep -o '<testcase[[:space:]]' "$f" | wc -l)
    after=$(stat_of test_results)
    [ $((after - before)) -eq "$cases" ] || fail "$f: stored $((after - before)) results, not $cases"
    total=$((total + cases))
    echo "ok $line"
  done
  echo "== the whole corpus in one import"
  cli import "$corpus"/junit/*.xml >"$work/out" 2>/dev/null || fail "import of the corpus"
  grep -q "^imported $(ls "$corpus"/junit/*.xml | wc -l) reports, $total test cases as test run" \
    "$work/out" || fail "corpus total: $(tail -n1 "$work/out")"
else
  echo "(no corpus at '$corpus'; skipped)"
fi

echo "== a generated pytest report: plain, gzipped, and in a tarball folder"
gen() { # PASSED FAILED ERRORS SKIPPED XFAILED
  local p=$1 f=$2 e=$3 s=$4 x=$5 n=$(($1 + $2 + $3 + $4 + $5)) i=0
  echo '<?xml version="1.0" encoding="utf-8"?><testsuites>'
  echo "<testsuite name=\"pytest\" errors=\"$e\" failures=\"$f\" skipped=\"$((s + x))\" tests=\"$n\">"
  for ((i = 0; i < n; i++)); do
    echo -n "<testcase classname=\"test_binary_ufuncs.TestBinaryUfuncsPRIVATEUSE1\""
    echo -n " name=\"test_add_case_${i}_spyre_float16\" file=\"test_binary_ufuncs.py\" time=\"0.0$((i % 10))\">"
    echo -n '<properties><property name="tag" value="op__add"/><property name="tag" value="dtype__float16"/></properties>'
    if ((i < f)); then
      echo -n "<failure message=\"AssertionError: Tensor-likes are not close! case $i\">Traceback&#10;E   AssertionError</failure>"
    elif ((i < f + e)); then
      echo -n '<error message="failed on setup with &quot;RuntimeError: spyre device lost&quot;">conftest.py:12: RuntimeError</error>'
    elif ((i < f + e + s)); then
      echo -n '<skipped type="pytest.skip" message="Only runs on cuda">skip</skipped>'
    elif ((i < f + e + s + x)); then
      echo -n '<skipped type="pytest.xfail" message="not supported on spyre">xfail</skipped>'
    fi
    echo "</testcase>"
  done
  echo '</testsuite></testsuites>'
}
gen 1900 37 5 40 18 >"$work/generated.xml"
cli import "$work/generated.xml" >"$work/out" 2>"$work/err" || fail "generated: $(cat "$work/err")"
check_report_line "$work/generated.xml" "$(head -n1 "$work/out")"
grep -q '^imported 1 report, 2000 test cases as test run [0-9]* (passed 1900, failed 37, error 5, skipped 40, xfailed 18, xpass-strict 0)$' "$work/out" \
  || fail "generated total: $(tail -n1 "$work/out")"
run=$(sed -nE 's/.* as test run ([0-9]+) .*/\1/p' "$work/out")
[ "$(cli tests --test-run "$run" --outcome failed | wc -l)" -eq 37 ] || fail "tests --outcome failed"
[ "$(cli tests --test-run "$run" --outcome failed --outcome error | wc -l)" -eq 42 ] || fail "two outcomes"
[ "$(cli tests --test-run "$run" --limit 10 | wc -l)" -eq 10 ] || fail "tests --limit"
cli tests --test-run "$run" --outcome error | head -n1 >"$work/line"
grep -Eq '^error +test_binary_ufuncs.py::TestBinaryUfuncsPRIVATEUSE1::test_add_case_[0-9]+_spyre_float16  [0-9.]+s  failed on setup with "RuntimeError: spyre device lost"$' "$work/line" \
  || fail "tests line: $(cat "$work/line")"

mkdir -p "$work/artifact/test-reports/shard-1" "$work/artifact/test-reports/shard-2"
gen 10 1 0 0 0 >"$work/artifact/test-reports/shard-1/test_ops.xml"
gen 20 0 0 2 0 | gzip >"$work/artifact/test-reports/shard-2/test_view_ops.xml.gz"
tar -czf "$work/artifact.tar.gz" -C "$work/artifact" test-reports
cli import "$work/artifact.tar.gz" "$work/artifact" >"$work/out" 2>"$work/err" || fail "archive: $(cat "$work/err")"
[ "$(grep -c ': tests ' "$work/out")" -eq 4 ] || fail "archive + folder: $(cat "$work/out")"
grep -q '^artifact.tar.gz:test-reports/shard-2/test_view_ops.xml.gz: tests 22, failures 0, errors 0, skipped 2$' "$work/out" \
  || fail "gzipped report in a tarball: $(cat "$work/out")"
grep -q '^imported 4 reports, 66 test cases' "$work/out" || fail "archive total: $(tail -n1 "$work/out")"

echo "== nothing importable: exit 1 with one line; the cache is unchanged"
before=$(stat_of test_results)
echo "not xml" >"$work/notes.txt"
set +e
cli import "$work/notes.txt" >/dev/null 2>"$work/err"; rc=$?
set -e
[ $rc -eq 1 ] || fail "non-report import exit $rc"
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "more than one line: $(cat "$work/err")"
grep -q 'not a JUnit XML report' "$work/err" || fail "reason: $(cat "$work/err")"
[ "$(stat_of test_results)" -eq "$before" ] || fail "a failed import changed the cache"
set +e
cli tests --check-run 424242 2>"$work/err"; rc=$?
cli tests --test-run "$run" --outcome nope 2>/dev/null; rc2=$?
set -e
[ $rc -eq 1 ] && grep -q 'no check run with id 424242' "$work/err" || fail "unknown check run ($rc)"
[ $rc2 -eq 2 ] || fail "bad --outcome exit $rc2"
echo "all import e2e checks passed"
