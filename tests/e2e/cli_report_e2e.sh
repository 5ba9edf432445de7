#!/usr/bin/env bash
# End to end (issue 36): a report that fits a PR comment, from the real
# binaries. relayhud-sim over loopback, relayhud-cli sync and artifacts, then:
# - a capped artifacts pass says how many failed jobs' logs it left, and the
#   next (uncapped) pass reads exactly those: more than 200 in all;
# - matrix --format tsv gives each job's check_run_id beside its cell;
# - report --sha on the three SHAs with the most red jobs (found from the
#   matrix) is at most 40 lines outside its <details> folds and under 20 KB,
#   leads with the summary and the jobs that failed, counts the expected
#   xfails and closes every fold (and, with cmark-gfm installed, renders
#   every table as one).
# Set RELAYHUD_REPORT_OUT=DIR to keep the three reports.
# usage: cli_report_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
source "$(dirname "${BASH_SOURCE[0]}")/sim_support.sh"
cli() { "$bin/relayhud-cli" --now "$now" --cache "$work/cache.sqlite" "$@"; }
export GITHUB_TOKEN=ghs_relayhudSimulatorToken0000000000 AWS_ACCESS_KEY_ID=RELAYHUDSIMULATOR \
  AWS_SECRET_ACCESS_KEY=relayhud/simulator/secret

# 90 commits: some 230 failed runs, more than a pass read before.
start_sim --commits 90
cli sync --hud "$url" --days 30 >/dev/null || fail "sync"

echo "== a capped pass says how many failed jobs' logs it left"
cli artifacts --github-api "$api" --s3-endpoint "$s3" --max-runs 150 --parallel 8 \
  >"$work/capped.out" || fail "capped artifacts: $(cat "$work/capped.out")"
cat "$work/capped.out"
grep -q "^read the job logs of 150 failed runs: " "$work/capped.out" || fail "not 150 logs read"
left=$(sed -n "s/^left \([0-9]*\) failed jobs' logs unread: --max-runs 150 reached; run again for the rest$/\1/p" \
  "$work/capped.out")
[ -n "$left" ] || fail "the capped pass did not say how many logs it left"
[ $((150 + left)) -gt 200 ] || fail "only $((150 + left)) failed jobs: the test needs more than 200"

echo "== the next pass reads every one it left, and says nothing is left"
cli artifacts --github-api "$api" --s3-endpoint "$s3" --parallel 8 >"$work/rest.out" ||
  fail "artifacts: $(cat "$work/rest.out")"
cat "$work/rest.out"
grep -q "^read the job logs of $left failed runs: $left with a failure line" "$work/rest.out" ||
  fail "the next pass did not read the $left logs left"
grep -q '^left ' "$work/rest.out" && fail "an uncapped pass left some"
cli artifacts --github-api "$api" --s3-endpoint "$s3" >"$work/again.out"
grep -q "^read the job logs of 0 failed runs" "$work/again.out" || fail "$(cat "$work/again.out")"

echo "== matrix tsv: each job's check_run_id beside its cell"
cli matrix --format tsv >"$work/m.tsv"
awk -F'\t' 'NR == 1 {
    if (NF < 7 || (NF - 5) % 2) { print "odd header: " NF " columns"; exit 1 }
    for (i = 6; i < NF; i += 2)
      if ($(i + 1) != $i " check_run_id") { print "column " i + 1 ": " $(i + 1); exit 1 }
    next }
  { for (i = 6; i < NF; i += 2)
      if (($i == "") != ($(i + 1) == "")) { print "row " NR " column " i ": [" $i "] [" $(i + 1) "]"; exit 1 }
      else if ($(i + 1) != "") ids++ }
  END { if (ids < 1000) { print "only " ids " ids"; exit 1 } }' "$work/m.tsv" ||
  fail "the tsv's check_run_id columns"
# A failed cell's id is the job the CLI knows by it.
id=$(awk -F'\t' 'NR > 1 { for (i = 6; i < NF; i += 2) if ($i ~ /^failure/) { print $(i + 1); exit } }' "$work/m.tsv")
[ -n "$id" ] || fail "no failed cell"
cli verdict --check-run "$id" >"$work/verdict.txt" || fail "verdict --check-run $id"
grep -q '^verdict: red$' "$work/verdict.txt" || fail "the failed cell's id: $(head -3 "$work/verdict.txt")"

echo "== report --sha on the three SHAs with the most red jobs"
awk -F'\t' 'NR > 1 { n = 0; for (i = 6; i < NF; i += 2) if ($i ~ /^(failure|timed_out)/) n++; print n "\t" $1 }' \
  "$work/m.tsv" | sort -k1,1nr -k2,2 | sed -n '1,3p' >"$work/worst"
cat "$work/worst"
# Lines outside the folds: a "<details>" line shows (its summary), what it
# folds up to its "</details>" does not.
visible() {
  awk '{ if (depth == 0) n++; if ($0 ~ /^<details>/) depth++; if ($0 ~ /<\/details>/ && depth > 0) depth-- }
       END { print n + 0 }' "$1"
}
i=0
while IFS=$'\t' read -r red sha; do
  i=$((i + 1))
  md="$work/report-$i.md"
  cli report --sha "$sha" >"$md" || fail "report --sha $sha"
  [ -n "${RELAYHUD_REPORT_OUT:-}" ] && cp "$md" "$RELAYHUD_REPORT_OUT/report-${sha:0:7}.md"
  lines=$(visible "$md")
  bytes=$(wc -c <"$md")
  echo "[ measured ] ${sha:0:7}: $red red jobs; $lines lines outside the folds, $(wc -l <"$md") in all, $bytes bytes"
  [ "$red" -ge 3 ] || fail "the worst SHA has only $red red jobs"
  [ "$lines" -le 40 ] || fail "${sha:0:7}: $lines lines outside the folds"
  [ "$bytes" -lt 20000 ] || fail "${sha:0:7}: $bytes bytes"
  # The summary first, then the jobs that failed, then the backends.
  first=$(awk '!/^#/ && !/^$/ { print; exit }' "$md")
  [[ $first =~ ^[0-9]+\ jobs\ · ]] || fail "${sha:0:7} starts with: $first"
  grep -q '❌ [0-9]* red' <<<"$first" || fail "no red count in: $first"
  failed=$(grep -n '^### Jobs that failed (' "$md" | cut -d: -f1)
  backends=$(grep -n '^### Jobs by backend$' "$md" | cut -d: -f1)
  [ -n "$failed" ] && [ -n "$backends" ] && [ "$failed" -lt "$backends" ] ||
    fail "${sha:0:7}: the jobs that failed do not lead"
  # Every red job's log was read: none waits for a sync.
  grep -q 'sync artifacts to read it' "$md" && fail "${sha:0:7}: a log left unread"
  # Expected xfails are counted, never a row each.
  grep -q '| expected (' "$md" && fail "${sha:0:7}: an expected xfail listed"
  [ "$(grep -c '^<details>' "$md")" -eq "$(grep -c '^</details>$' "$md")" ] ||
    fail "${sha:0:7}: unbalanced <details>"
  # Rendered as GitHub does (its cmark-gfm, when installed): every table is
  # a table, no row falls out as a paragraph, every fold is closed.
  if command -v cmark-gfm >/dev/null; then
    cmark-gfm --unsafe -e table -e autolink -e tagfilter "$md" >"$md.html"
    [ "$(grep -c '<table>' "$md.html")" -eq "$(grep -c '^|---' "$md")" ] ||
      fail "${sha:0:7}: a table does not render as one"
    grep -q '^<p>|' "$md.html" && fail "${sha:0:7}: a table row rendered as text"
    [ "$(grep -c '<details>' "$md.html")" -eq "$(grep -c '</details>' "$md.html")" ] ||
      fail "${sha:0:7}: the HTML's folds do not close"
  fi
done <"$work/worst"
[ "$i" -eq 3 ] || fail "$i SHAs reported"
echo "all report e2e checks passed"
