#!/usr/bin/env bash
# The include-graph check (cmake/check_includes.cmake): the repository holds
# its layering; a tree with one planted upward include, one private header
# reached across components, one core file including the simulator, and one
# cycle in the graph each fail with the offending edge named.
# usage: include_graph_e2e.sh SOURCE_DIR
set -euo pipefail
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
check() { cmake -DSOURCE_DIR="$1" -P "$src/cmake/check_includes.cmake" 2>&1; }

out=$(check "$src") || fail "the repository breaks its own layering: $out"
grep -q "include graph: acyclic" <<<"$out" || fail "no summary: $out"

# A small house of the same shape: util below store, the simulator beside.
tree() {
    rm -rf "$work/t" && mkdir -p "$work/t/core/src/util" "$work/t/core/src/store" \
        "$work/t/core/include/relayhud/store" "$work/t/sim/src" "$work/t/ui/src" \
        "$work/t/app/cli" "$work/t/app/gui"
    cp "$src/core/components.cmake" "$work/t/core/"
    printf '#pragma once\n' >"$work/t/core/include/relayhud/store/database.h"
    printf '#include "relayhud/util/time.h"\n#include "store/statement.h"\n' \
        >"$work/t/core/src/store/database.cpp"
    printf 'int x;\n' >"$work/t/core/src/util/time.cpp"
}
tree
out=$(check "$work/t") || fail "a sound tree fails: $out"

tree
printf '// a helper\n#include <string>\n#include "relayhud/store/database.h"\n' >"$work/t/core/src/util/time.cpp"
if out=$(check "$work/t"); then fail "an upward include passed: $out"; fi
grep -qF 'core/src/util/time.cpp:3: util -> store (#include "relayhud/store/database.h"), but util may include only: util' <<<"$out" ||
    fail "the upward edge is not named: $out"

tree
printf '#include "store/statement.h"\n' >"$work/t/core/src/util/time.cpp"
if out=$(check "$work/t"); then fail "a private header across components passed: $out"; fi
grep -qF 'core/src/util/time.cpp:1: util -> a private header of store' <<<"$out" ||
    fail "the private edge is not named: $out"

tree
printf '#include "relayhud/sim/sim_server.h"\n' >"$work/t/core/src/store/database.cpp"
if out=$(check "$work/t"); then fail "core including the simulator passed: $out"; fi
grep -qF 'core/src/store/database.cpp:1: store -> sim' <<<"$out" || fail "the sim edge is not named: $out"

tree
echo 'set(RELAYHUD_CORE_DEPS_util store)' >>"$work/t/core/components.cmake"
if out=$(check "$work/t"); then fail "a cycle passed: $out"; fi
grep -q "components.cmake: a cycle" <<<"$out" || fail "the cycle is not named: $out"
grep -q "^ *util, .*store" <<<"$out" || fail "the cycle does not name util and store: $out"
echo "ok: the include graph holds, and planted edges and cycles are refused"
