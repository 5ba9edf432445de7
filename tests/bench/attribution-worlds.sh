#!/usr/bin/env bash
# The automatic failure classes (triage/suggest.h) judged on many simulated
# worlds, not on the few the rules were written against (issue 37).
#
# Each world is a relayhud-sim seed at a clock instant (--now: the world moves
# with it). Per world: a 30-day sync, every run's test results and failed
# jobs' logs (artifacts --runs all), then `relayhud-cli attribution-accuracy
# --format tsv` against the simulator's ground truth (--write-truth). Prints
# per world the precision and recall of each class, their minimum over the
# worlds and the world where each is lowest, a calibration table (how often
# a suggestion shown at a confidence is right), and whether the targets hold:
#   regression precision >= 0.95 and recall >= 0.90 in every world,
#   backend-bug recall >= 0.85 (over all worlds), accuracy >= 0.93 (all worlds),
#   suggestions shown at >= 90% confidence right >= 90% of the time.
# Exit 0 when every target holds, 1 when one does not, 2 on a bad argument.
#
# usage: attribution-worlds.sh [--bin DIR] [--seeds "S..."] [--instants "T..."]
#                              [--jobs N] [--keep DIR [--reuse | --kept-only]]
#   --bin       where relayhud-sim and relayhud-cli are (default build/ci/app)
#   --seeds     simulator seeds (default 125-134: none of them was looked at
#               while the rules were written; seeds 1-4 and 101-124 were)
#   --instants  clock instants, ISO 8601 (default three across the year)
#   --jobs      worlds at a time (default 2)
#   --keep      keep each world's cache, truth and classes under DIR
#   --reuse     judge the worlds kept under DIR again (after a change of the
#               rules) without simulating and fetching them anew
#   --kept-only as --reuse, and leave out the worlds not (yet) kept
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$here/../../build/ci/app
seeds="125 126 127 128 129 130 131 132 133 134"
instants="2026-02-11T09:00:00Z 2026-06-23T15:30:00Z 2026-10-02T22:45:00Z"
jobs=2
keep=""
reuse=0
keptOnly=0
usage() { sed -n '/^# usage:/,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --instants) instants=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    --reuse) reuse=1; shift ;;
    --kept-only) reuse=1; keptOnly=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "attribution-worlds: unknown argument '$1'" >&2; usage ;;
  esac
done
for tool in relayhud-sim relayhud-cli; do
  [ -x "$bin/$tool" ] || { echo "attribution-worlds: no $bin/$tool (build the ci preset, or give --bin)" >&2; exit 2; }
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "attribution-worlds: --jobs must be a positive integer" >&2; exit 2; }
[ $reuse -eq 0 ] || [ -n "$keep" ] || { echo "attribution-worlds: --reuse needs --keep DIR" >&2; exit 2; }

if [ -n "$keep" ]; then
  mkdir -p "$keep"
  work=$(cd "$keep" && pwd)
  trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
else
  work=$(mktemp -d)
  trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
fi

# One world: its classes as TSV in $dir/said.tsv, its log in $dir/log.
world() {
  local seed=$1 now=$2 dir=$3
  if [ $reuse -eq 1 ] && [ -f "$dir/fetched" ]; then
    "$bin/relayhud-cli" --now "$now" --cache "$dir/cache.sqlite" attribution-accuracy \
      --truth "$dir/truth.jsonl" --format tsv >"$dir/said.tsv" 2>"$dir/log" && return 0
    echo "world seed $seed at $now: $(cat "$dir/log")" >&2
    return 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  "$bin/relayhud-sim" --port 0 --seed "$seed" --now "$now" --write-truth "$dir/truth.jsonl" \
    >"$dir/sim.out" 2>"$dir/sim.err" &
  local sim=$!
  for _ in $(seq 600); do
    [ -s "$dir/sim.out" ] && [ "$(wc -l <"$dir/sim.out")" -ge 3 ] && break
    kill -0 $sim 2>/dev/null || break
    sleep 0.1
  done
  local url api s3
  url=$(sed -n 1p "$dir/sim.out" | awk '{ print $NF }')
  api=$(sed -n 2p "$dir/sim.out" | awk '{ print $NF }')
  s3=$(sed -n 3p "$dir/sim.out" | awk '{ print $NF }')
  local cli=("$bin/relayhud-cli" --now "$now" --cache "$dir/cache.sqlite")
  local ok=1 t0=$SECONDS
  if [[ $url != http://* ]]; then
    echo "the simulator did not start: $(cat "$dir/sim.err")" >"$dir/log"; ok=0
  elif ! "${cli[@]}" sync --hud "$url" --days 30 >"$dir/log" 2>&1; then
    ok=0
  elif ! GITHUB_TOKEN=ghs_relayhudSimulatorToken0000000000 AWS_ACCESS_KEY_ID=RELAYHUDSIMULATOR \
       AWS_SECRET_ACCESS_KEY=relayhud/simulator/secret \
       "${cli[@]}" artifacts --github-api "$api" --s3-endpoint "$s3" --runs all --days 30 \
       >>"$dir/log" 2>&1; then
    ok=0
  else
    echo "simulated, synced and fetched in $((SECONDS - t0)) s" >"$dir/fetched"
    "${cli[@]}" attribution-accuracy --truth "$dir/truth.jsonl" --format tsv \
      >"$dir/said.tsv" 2>>"$dir/log" || ok=0
  fi
  kill $sim 2>/dev/null || true
  wait $sim 2>/dev/null || true
  [ $ok -eq 1 ] || { echo "world seed $seed at $now failed:" >&2; tail -n 5 "$dir/log" >&2; return 1; }
}

started=$(date +%s)
worlds=()
for seed in $seeds; do
  for now in $instants; do
    [ $keptOnly -eq 1 ] && [ ! -f "$work/$seed@$now/fetched" ] && continue
    worlds+=("$seed $now")
  done
done
[ ${#worlds[@]} -gt 0 ] || { echo "attribution-worlds: no world to judge" >&2; exit 2; }
running=0
failed=0
for w in "${worlds[@]}"; do
  read -r seed now <<<"$w"
  world "$seed" "$now" "$work/$seed@$now" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then
    wait -n || failed=$((failed + 1))
    running=$((running - 1))
  fi
done
while [ $running -gt 0 ]; do
  wait -n || failed=$((failed + 1))
  running=$((running - 1))
done
[ $failed -eq 0 ] || { echo "attribution-worlds: $failed of ${#worlds[@]} worlds failed" >&2; exit 1; }

for w in "${worlds[@]}"; do
  read -r seed now <<<"$w"
  awk -v world="$seed@$now" 'BEGIN { OFS = "\t" } { print world, $0 }' "$work/$seed@$now/said.tsv"
done >"$work/all.tsv"

awk -F'\t' -v seconds=$(($(date +%s) - started)) '
function ratio(a, b) { return b == 0 ? "  -  " : sprintf("%.3f", a / b) }
function pr(w, c,   p) { return ratio(hit[w, c], said[w, c]) "/" ratio(hit[w, c], truth[w, c]) }
{
  w = $1; t = $4; s = $5; conf = $6
  if (!(w in seen)) { seen[w] = 1; order[++worlds] = w }
  if (t != "(not in truth)") { truth[w, t]++; T[t]++; lines[w]++ }
  if (s != "(missing)") { said[w, s]++; S[s]++ }
  if (t == s) { hit[w, t]++; H[t]++; right[w]++ }
  # Calibration: every suggestion that names a class, by its confidence,
  # where the truth judges it (it leaves cancelled runs out).
  if (t == "(not in truth)") { if (s != "(untriaged)") unjudged[s]++ }
  else if (s != "(missing)" && s != "(untriaged)" && conf != "-") {
    b = conf >= 0.9 ? 1 : conf >= 0.75 ? 2 : conf >= 0.5 ? 3 : 4
    shown[b]++; if (t == s) good[b]++
  }
}
END {
  split("this_pr broken_trunk backend flaky infra", cls, " ")
  printf "%-24s %-13s %-13s %-13s %-13s %-13s %s\n", "world (seed@now)", "regression", \
    "broken_trunk", "backend", "flaky", "infra", "accuracy"
  printf "%-24s %-13s %-13s %-13s %-13s %-13s\n", "", "P/R", "P/R", "P/R", "P/R", "P/R"
  for (i = 1; i <= worlds; i++) {
    w = order[i]
    printf "%-24s", w
    for (k = 1; k <= 5; k++) printf " %-13s", pr(w, cls[k])
    printf " %s (%d of %d)\n", ratio(right[w], lines[w]), right[w], lines[w]
    acc = lines[w] ? right[w] / lines[w] : 1
    if (i == 1 || acc < worstAcc) { worstAcc = acc; worst = w }
    for (k = 1; k <= 5; k++) {
      c = cls[k]
      if (said[w, c] > 0) { p = hit[w, c] / said[w, c]; if (!(c in minP) || p < minP[c]) { minP[c] = p; minPw[c] = w } }
      if (truth[w, c] > 0) { r = hit[w, c] / truth[w, c]; if (!(c in minR) || r < minR[c]) { minR[c] = r; minRw[c] = w } }
    }
    allLines += lines[w]; allRight += right[w]
  }
  printf "\n%-13s %-9s %-9s %-24s %-9s %-24s\n", "class", "P (all)", "min P", "at", "min R", "at"
  for (k = 1; k <= 5; k++) {
    c = cls[k]
    printf "%-13s %-9s %-9s %-24s %-9s %-24s R (all) %s\n", c, ratio(H[c], S[c]), \
      (c in minP) ? sprintf("%.3f", minP[c]) : "-", minPw[c], \
      (c in minR) ? sprintf("%.3f", minR[c]) : "-", minRw[c], ratio(H[c], T[c])
  }
  printf "\nworst world: %s (accuracy %.3f)\n", worst, worstAcc
  printf "\ncalibration (every suggestion that names a class where the truth has a line, all worlds)\n"
  printf "%-12s %-8s %-8s %s\n", "confidence", "shown", "right", "share right"
  name[1] = ">= 0.90"; name[2] = "0.75-0.89"; name[3] = "0.50-0.74"; name[4] = "< 0.50"
  for (b = 1; b <= 4; b++) printf "%-12s %-8d %-8d %s\n", name[b], shown[b], good[b], ratio(good[b], shown[b])
  u = ""
  for (c in unjudged) u = u sprintf(" %s %d", c, unjudged[c])
  if (u != "") printf "classes on runs the truth leaves out (cancelled), counted against precision above:%s\n", u

  regP = ("this_pr" in minP) ? minP["this_pr"] : 1
  regR = ("this_pr" in minR) ? minR["this_pr"] : 1
  backR = T["backend"] ? H["backend"] / T["backend"] : 1
  accAll = allLines ? allRight / allLines : 1
  cal = shown[1] ? good[1] / shown[1] : 1
  printf "\ntargets over %d worlds (%d s):\n", worlds, seconds
  ok = 1
  ok = check("regression precision >= 0.95 in every world", regP >= 0.95, regP, minPw["this_pr"]) && ok
  ok = check("regression recall >= 0.90 in every world", regR >= 0.90, regR, minRw["this_pr"]) && ok
  ok = check("backend-bug recall >= 0.85", backR >= 0.85, backR, "all worlds") && ok
  ok = check("accuracy >= 0.93", accAll >= 0.93, accAll, "all worlds") && ok
  ok = check(">= 90% confidence right >= 90% of the time", cal >= 0.90, cal, "all worlds") && ok
  exit ok ? 0 : 1
}
function check(what, holds, value, where) {
  printf "  %-4s %-46s %.3f (%s)\n", holds ? "yes" : "NO", what, value, where
  return holds
}' "$work/all.tsv"
