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
edit demote cfg/view_ops.yaml TestOldViewOps::test_transposes_errors --reason "int64 regressed" \
    --demote-to xfail_strict
edit set-mode cfg/view_ops.yaml "test/test_view_ops.py::TestViewOpsPRIVATEUSE1::test_new_spyre_float16" \
    xfail_strict --reason "new in 2.12"

"$cli" config validate "$work/real/cfg/view_ops.yaml" >/dev/null || fail "edited file invalid"
out="$("$cli" config explain "$work/real/cfg/view_ops.yaml" \
    TestOldViewOpsPRIVATEUSE1::test_transposes_errors_spyre_float16 --dtype float16)"
grep -q "outcome: xfail_strict" <<<"$out" || fail "explain after edit: $out"
out="$("$cli" config explain "$work/real/cfg/view_ops.yaml" TestViewOps::test_unbind --format tsv)"
IFS=$'\t' read -r mode line reason <<<"$out"
[ "$mode" == "mandatory_success" ] || fail "tsv mode: $out"
[[ "$line" =~ ^[0-9]+$ ]] || fail "tsv line: $out"
[ -n "$reason" ] || fail "tsv reason: $out"

# Real semantics on the corpus: a regex listing decides, the class part is
# ignored, a dtype the entry excludes drops the variant; several tests from
# stdin; TORCH_SPYRE_TEST_TYPE; several configs merged.
scalar="$corpus/configs/tests__configs__torch_spyre_tests__inductor__test_inductor_ops_reduction_scalar_config.yaml"
out="$("$cli" config explain "$scalar" \
    "tests/inductor/test_inductor_ops.py::TestOpsPRIVATEUSE1::test_std_dim_spyre" --format tsv)"
[[ "$out" == mandatory_success$'\t'7$'\t'regex* ]] || fail "regex explain: $out"
out="$("$cli" config explain "$src" \
    "test/test_view_ops.py::TestOldViewOpsPRIVATEUSE1::test_transposes_errors_spyre_int64" --format tsv)"
[[ "$out" == dropped$'\t'71$'\t'* ]] || fail "excluded dtype: $out"
out="$(printf '%s\n' \
    "test/test_view_ops.py::TestViewOpsPRIVATEUSE1::test_conj_self_spyre_float32" \
    "test/test_view_ops.py::TestViewOpsPRIVATEUSE1::test_conj_self_spyre_complex64" \
    "test/test_other.py::TestXPRIVATEUSE1::test_y_spyre" |
    "$cli" config explain "$src" --stdin)" && fail "an unknown file must make --stdin exit 1"
[ "$(wc -l <<<"$out")" -eq 3 ] || fail "--stdin prints a line per test: $out"
grep -q $'test_conj_self_spyre_float32\tmandatory_success\t58\t' <<<"$out" || fail "stdin 1: $out"
grep -q $'test_conj_self_spyre_complex64\tdropped\t58\t' <<<"$out" || fail "stdin 2: $out"
grep -q $'test_y_spyre\terror\t' <<<"$out" || fail "stdin 3: $out"
cat >"$work/labels.yaml" <<'YAML'
test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_view_ops.py
      unlisted_test_mode: skip
      tests:
        - names: [TestViewOps::test_nightly_only]
          labels: [nightly]
YAML
out="$("$cli" config explain "$work/labels.yaml" TestViewOpsPRIVATEUSE1::test_nightly_only_spyre \
    --test-type trunk --format tsv)"
[[ "$out" == dropped$'\t'* ]] || fail "labels: $out"
out="$("$cli" config explain "$work/labels.yaml" "$src" \
    "test/test_view_ops.py::TestViewOpsPRIVATEUSE1::test_narrow_copy_spyre_int64" --format tsv \
    2>"$work/merge.err")"
[[ "$out" == skip$'\t'unlisted$'\t'* ]] || fail "merged: the first unlisted mode wins: $out"
grep -q "merge: unlisted_test_mode" "$work/merge.err" || fail "merge note: $(cat "$work/merge.err")"
out="$("$cli" config explain "$work/labels.yaml" "$src" \
    "test/test_view_ops.py::TestViewOpsPRIVATEUSE1::test_conj_self_spyre_float32" --format tsv)"
[[ "$out" == mandatory_success$'\t'*test_view_ops_config.yaml:58$'\t'* ]] \
    || fail "merged line names its file: $out"

# validate: a listing written as a variant never matches; it says so, where,
# and what to list instead; an invalid regex is an error (exit 1).
cat >"$work/dead.yaml" <<'YAML'
test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_x.py
      unlisted_test_mode: xfail
      tests:
        - names:
            - TestX::test_foo_spyre_float16
YAML
out="$("$cli" config validate "$work/dead.yaml")" || fail "warnings alone must exit 0: $out"
grep -q "dead.yaml:7:15: warning: 'test_foo_spyre_float16' names a variant.*list 'test_foo'" \
    <<<"$out" || fail "dead listing: $out"
printf '        - names:\n            - test_(unclosed\n' >>"$work/dead.yaml"
set +e
"$cli" config validate "$work/dead.yaml" >"$work/out" 2>/dev/null
[ $? -eq 1 ] || fail "an invalid regex must exit 1"
set -e
grep -q "dead.yaml:9:15: error: 'test_(unclosed' is a regular expression that does not compile" \
    "$work/out" || fail "invalid regex: $(cat "$work/out")"

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
