#!/usr/bin/env bash
# Builds the libFuzzer targets (the `fuzz` preset), gathers their seeds and
# runs them, two at a time, each for the time given:
#
#   fuzz/run.sh [--seconds N] [--jobs J] [TARGET...]    (default: 30 s, 2 jobs, all)
#
# A long run is the same command: `fuzz/run.sh --seconds 1800`.
# Seeds: fuzz/seeds/<target>/ (small handwritten answers), ../shared/corpus/
# and tests/data/ (real files), fuzz/regressions/<target>/ (inputs that once
# broke a property), and archives made here from the JUnit files. The grown
# corpus stays in build/fuzz/corpus/<target>/ for the next run; findings go to
# build/fuzz/findings/<target>/. Exits non-zero when any target found one.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=30
jobs=2
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
all=(junit hud listings headers rules config log archive triage workflow instance_channel link team_row)
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
    [[ " ${all[*]} " == *" $t "* ]] || { echo "fuzz/run.sh: no target '$t' (${all[*]})" >&2; exit 2; }
done

command -v clang++-14 >/dev/null && command -v zip >/dev/null || {
    echo "fuzz/run.sh: needs clang 14 and zip: packaging/install-deps.sh --fuzz" >&2
    exit 2
}
build=build/fuzz
shared=../shared/corpus
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz

# seeds <target> <file or folder>...: copies what exists into the target's seed folder.
seed_root=$build/seeds
rm -rf "$seed_root"
seeds() {
    local target=$1
    shift
    mkdir -p "$seed_root/$target"
    local path
    for path in "$@"; do
        if [ -d "$path" ]; then
            find "$path" -maxdepth 1 -type f -exec cp -t "$seed_root/$target" {} +
        elif [ -f "$path" ]; then
            cp "$path" "$seed_root/$target/"
        fi
    done
}
for t in "${all[@]}"; do
    seeds "$t" "fuzz/seeds/$t" "fuzz/regressions/$t"
done
seeds junit "$shared/junit" tests/data/junit
seeds hud tests/data/hud
seeds rules "$shared/rules" resources/triage/default_rules.toml
seeds config "$shared/configs"
seeds triage
seeds workflow "$shared/workflows"
# The log target reads its first line as a search (options byte, pattern).
mkdir -p "$seed_root/log"
i=0
for f in "$shared"/logs/*.txt "$shared"/raw-logs/*.txt; do
    [ -f "$f" ] || continue
    case $((i % 4)) in
    0) header=$'\x00FAILED' ;;
    1) header=$'\x01^E +[A-Za-z]+Error' ;;
    2) header=$'\x02error' ;;
    3) header=$'\x05##\\[(error|warning)\\]' ;;
    esac
    { printf '%s\n' "$header"; head -c 60000 "$f"; } >"$seed_root/log/$(basename "$f")"
    i=$((i + 1))
done
# Archives of the JUnit seeds in the formats artifact stores use.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/reports/shard-1"
for f in "$shared"/junit/*.xml tests/data/junit/*.xml; do
    [ -f "$f" ] && [ "$(stat -c %s "$f")" -lt 20000 ] && cp "$f" "$scratch/reports/shard-1/"
done
mkdir -p "$seed_root/archive"
(cd "$scratch" && tar -cf "$OLDPWD/$seed_root/archive/reports.tar" reports)
(cd "$scratch" && tar -czf "$OLDPWD/$seed_root/archive/reports.tar.gz" reports)
gzip -c "$(find "$scratch/reports" -name '*.xml' | head -1)" >"$seed_root/archive/report.xml.gz"
if command -v zip >/dev/null; then
    (cd "$scratch" && zip -qr "$OLDPWD/$seed_root/archive/reports.zip" reports)
fi

# Inputs up to 64 KiB (configs: 256 KiB, real ones reach 50 KB); 2 GiB of
# memory; an input that takes 20 s is a finding.
max_len() { case "$1" in config) echo 262144 ;; *) echo 65536 ;; esac; }
run_one() {
    local t=$1
    mkdir -p "$build/corpus/$t" "$build/findings/$t" "$build/logs"
    local started=$SECONDS status=0
    # Only what this run finds counts: a crasher kept from an earlier run
    # (already a regression input, or being fixed) does not fail this one.
    local stamp="$build/logs/$t.started"
    touch "$stamp"
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=20 \
        -rss_limit_mb=2048 -print_final_stats=1 -print_funcs=0 -print_pcs=0 \
        -artifact_prefix="$build/findings/$t/" "$build/corpus/$t" "$seed_root/$t" \
        >"$build/logs/$t.log" 2>&1 || status=$?
    local runs
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$build/logs/$t.log" | tail -1 | grep -o '[0-9]*$' || echo 0)
    local found
    found=$(find "$build/findings/$t" -type f -newer "$stamp" | wc -l)
    printf '%-9s %6ss %10s runs %6s corpus  %s\n' "$t" $((SECONDS - started)) "${runs:-0}" \
        "$(find "$build/corpus/$t" -type f | wc -l)" \
        "$([ "$status" -eq 0 ] && [ "$found" -eq 0 ] && echo ok || echo "FINDING ($build/logs/$t.log)")"
    [ "$status" -eq 0 ] && [ "$found" -eq 0 ]
}
export -f run_one max_len
export build seed_root seconds
echo "fuzz: ${#targets[@]} targets, ${seconds} s each, $jobs at a time"
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}' && exit 0
echo "fuzz: findings above; each crasher is in $build/findings/<target>/" >&2
exit 1
