#!/usr/bin/env bash
# relayhud-cli config: a --dry-run diff applied with `patch -p1` must give the
# same bytes as the real edit; exit codes 0 ok, 1 refused, 2 bad arguments.
set -euo pipefail
cli="$1/relayhud-cli"
corpus="$2"
src="$corpus/configs/tests__configs__upstream_tests__test_view_ops_config.yaml"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/dry/cfg" "$work/real/cfg"
cp "$src" "$work/dry/cfg/view_ops.yaml"
cp "$src" "$work/real/cfg/view_ops.yaml"
chmod u+w "$work/dry/cfg/view_ops.yaml" "$work/real/cfg/view_ops.yaml" # the corpus is read-only

# Several edits in a row, each as dry run + patch on one copy and for real on
# the other: a name of a many-name entry, a one-name entry, an unlisted test.
edit() {
    (cd "$work/dry" && "$cli" config "$@" --dry-run >../change.patch) || fail "dry run: $*"
    grep -q '^--- a/cfg/view_ops.yaml$' "$work/change.patch" || fail "diff header: $*"
    grep -q '^@@ ' "$work/change.patch" || fail "no hunk: $*"
    cmp -s "$work/dry/cfg/view_ops.yaml" "$work/real/cfg/view_ops.yaml" \
        || fail "the dry run wrote the file: $*"
    (cd "$work/dry" && patch -p1 --quiet --no-backup-if-mismatch <../change.patch) \
        || fail "patch did not apply: $*"
    (cd "$work/real" && "$cli" config "$@" >/dev/null) || fail "real edit: $*"
    cmp "$work/dry/cfg/view_ops.yaml" "$work/real/cfg/view_ops.yaml" \
        || fail "patched dry run differs from the real edit: $*"
}
edit demote cfg/view_ops.yaml TestViewOps::test_unbind --reason "fails since 2.11" \
    --evidence "failed 5/5 runs of spyre/trunk since abc1234"
edit promote cfg/view_ops.yaml TestViewOps::test_unbind --reason "fixed again"
edit demote cfg/view_ops.yaml TestOldViewOps::test_transposes_errors --reason "int64 regressed"
edit set-mode cfg/view_ops.yaml "test/test_view_ops.py::TestViewOpsPRIVATEUSE1::test_new_spyre_float16" \
    xfail_strict --reason "new in 2.12"

"$cli" config validate "$work/real/cfg/view_ops.yaml" >/dev/null || fail "edited file invalid"
out="$("$cli" config explain "$work/real/cfg/view_ops.yaml" \
    TestOldViewOpsPRIVATEUSE1::test_transposes_errors_spyre_float16 --dtype float16)"
grep -q "outcome: xfail_strict" <<<"$out" || fail "explain after edit: $out"

set +e
"$cli" config promote "$work/real/cfg/view_ops.yaml" TestViewOps::test_contiguous_self \
    --reason x 2>/dev/null
[ $? -eq 1 ] || fail "promoting a mandatory_success test must be refused with 1"
"$cli" config promote "$work/real/cfg/view_ops.yaml" 2>/dev/null
[ $? -eq 2 ] || fail "missing arguments must exit 2"
"$cli" config set-mode "$work/real/cfg/view_ops.yaml" TestViewOps::test_unbind bogus \
    --reason x 2>/dev/null
[ $? -eq 2 ] || fail "an unknown mode must exit 2"
chmod a-w "$work/real/cfg/view_ops.yaml"
before="$(cat "$work/real/cfg/view_ops.yaml")"
"$cli" config demote "$work/real/cfg/view_ops.yaml" TestViewOps::test_contiguous_self \
    --reason x 2>"$work/err"
[ $? -eq 1 ] || fail "a read-only file must be refused with 1"
grep -q "read-only" "$work/err" || fail "read-only reason: $(cat "$work/err")"
[ "$before" == "$(cat "$work/real/cfg/view_ops.yaml")" ] || fail "read-only file changed"

# config suggest: the arguments, and a cache without runs suggests nothing.
"$cli" --cache "$work/cache.sqlite" config suggest "$work/dry/cfg/view_ops.yaml" --runs 0 \
    2>/dev/null
[ $? -eq 2 ] || fail "config suggest --runs 0 must exit 2"
out="$("$cli" --cache "$work/cache.sqlite" config suggest "$work/dry/cfg/view_ops.yaml" --runs 3)"
[ $? -eq 0 ] || fail "config suggest on an empty cache"
grep -q "^0 suggestion(s) from the last 3 runs of each job$" <<<"$out" || fail "suggest: $out"
set -e
echo "ok"
