#!/usr/bin/env bash
# The include-graph check (cmake/check_includes.cmake): the repository holds
# its layering; a tree with one planted upward include (in core, in ui), one
# private header reached across components, one core file including the
# simulator, a ui file in no component, one cycle in either graph, and a
# drawing in docs/ARCHITECTURE.md that the components files no longer give
# each fail with the offending edge named.
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
        "$work/t/app/cli" "$work/t/app/gui" "$work/t/ui/src/common" "$work/t/ui/src/matrix"
    cp "$src/core/components.cmake" "$work/t/core/"
    cp "$src/ui/components.cmake" "$work/t/ui/"
    printf '#include "relayhud/ui/common/format.h"\n' >"$work/t/ui/src/matrix/matrix_model.cpp"
    printf 'int y;\n' >"$work/t/ui/src/common/format.cpp"
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
tree
printf '#include <QString>\n#include "relayhud/ui/matrix/matrix_model.h"\n' >"$work/t/ui/src/common/format.cpp"
if out=$(check "$work/t"); then fail "an upward ui include passed: $out"; fi
grep -qF 'ui/src/common/format.cpp:2: ui/common -> ui/matrix (#include "relayhud/ui/matrix/matrix_model.h")' <<<"$out" ||
    fail "the upward ui edge is not named: $out"

tree
printf 'int z;\n' >"$work/t/ui/src/loose.cpp"
if out=$(check "$work/t"); then fail "a ui file in no component passed: $out"; fi
grep -qF 'ui/src/loose.cpp: in no ui component' <<<"$out" || fail "the loose ui file is not named: $out"

tree
echo 'set(RELAYHUD_UI_DEPS_common window)' >>"$work/t/ui/components.cmake"
if out=$(check "$work/t"); then fail "a ui cycle passed: $out"; fi
grep -q "ui/components.cmake: a cycle" <<<"$out" || fail "the ui cycle is not named: $out"

# The drawing: the repository's own is current; a tree whose graph changed
# under its drawing fails until it is redrawn.
tree
mkdir -p "$work/t/docs" && cp "$src/docs/ARCHITECTURE.md" "$work/t/docs/"
echo 'set(RELAYHUD_UI_DEPS_gating common settings)' >>"$work/t/ui/components.cmake"
if out=$(check "$work/t"); then fail "a stale drawing passed: $out"; fi
grep -qF "docs/ARCHITECTURE.md: its graph is not the one the components files give" <<<"$out" ||
    fail "the stale drawing is not named: $out"
cmake -DSOURCE_DIR="$work/t" -DWRITE_GRAPH=ON -P "$src/cmake/check_includes.cmake" >/dev/null 2>&1 ||
    fail "redrawing failed"
out=$(check "$work/t") || fail "the redrawn tree fails: $out"
grep -qF "ui_gating --> ui_settings" "$work/t/docs/ARCHITECTURE.md" || fail "the redrawing lacks the new edge"

echo "ok: the include graph holds, and planted edges and cycles are refused"
