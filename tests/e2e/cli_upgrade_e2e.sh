#!/usr/bin/env bash
# End to end: relayhud-cli upgrade-review on a PyTorch-shaped checkout built
# here with two tagged commits (git's own command line makes it; the CLI reads
# it through libgit2): the exact TSV of method changes and stale entries, the
# text summary, and a clear error with exit 2 for a missing revision, a
# folder that is no checkout and missing arguments.
# usage: cli_upgrade_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cli() { "$bin/relayhud-cli" --cache "$work/cache.sqlite" upgrade-review "$@"; }
repo="$work/pytorch"
git() { command git -C "$repo" -c user.name=t -c user.email=t@example.com "$@"; }

mkdir -p "$repo/test"
cat >"$repo/test/test_nn.py" <<'PY'
class TestNN(NNTestCase):
    @dtypes(torch.float, torch.double)
    def test_conv(self, device, dtype):
        return conv(device, dtype)

    def test_linear_old_name(self):
        '''Linear, checked.'''
        return linear()

    def test_dropped(self):
        pass


class TestNNDeviceType(NNTestCase):
    def test_pool(self, device):
        return pool(device)
PY
git init -q
git add -A
git commit -qm "v2.13"
git tag v2.13.0
cat >"$repo/test/test_nn.py" <<'PY'
class TestNN(NNTestCase):
    @dtypes(torch.float, torch.double, torch.half)
    def test_conv(self, device, dtype):
        return conv(device, dtype)

    def test_linear(self):
        '''Linear, checked.'''
        return linear()


class TestNNDeviceType(NNTestCase):
    def test_pool(self, device):
        # pooling on the device
        return pool(device)

    def test_new_op(self, device):
        return new_op(device)
PY
git commit -qam "v2.14"
git tag v2.14.0

cat >"$work/spyre.yaml" <<'YAML'
test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_nn.py
      unlisted_test_mode: xfail
      tests:
        - names:
            - TestNN::test_conv
            - TestNN::test_linear_old_name
            - TestNN::test_dropped
          mode: xfail_strict
YAML

cli --pytorch "$repo" --from v2.13.0 --to v2.14.0 --format tsv "$work/spyre.yaml" >"$work/tsv" \
    || fail "upgrade-review exited $?"
printf '%s\n' \
    "changed	test/test_nn.py	TestNN	test_conv	decorators" \
    "removed	test/test_nn.py	TestNN	test_dropped	" \
    "renamed	test/test_nn.py	TestNN	test_linear_old_name	test_linear" \
    "added	test/test_nn.py	TestNNDeviceType	test_new_op	" \
    "stale	test/test_nn.py	TestNN	test_linear_old_name	$work/spyre.yaml:8: TestNN::test_linear_old_name (renamed to test_linear)" \
    "stale	test/test_nn.py	TestNN	test_dropped	$work/spyre.yaml:9: TestNN::test_dropped (removed)" \
    >"$work/expected"
diff -u "$work/expected" "$work/tsv" || fail "the TSV differs (above)"

cli --pytorch "$repo/test" --from v2.13.0 --to HEAD "$work/spyre.yaml" >"$work/text" \
    || fail "the text review exited $?"
grep -q "4 changed methods in 1 file (1 added, 1 removed, 1 renamed, 1 changed, 0 moved); 1 now falls to the default; 2 stale entries" \
    "$work/text" || fail "no summary line: $(head -3 "$work/text")"

expect_trouble() { # WHAT ARGS...: exit 2 and a one-line reason naming WHAT
    local what=$1 status=0
    shift
    cli "$@" >/dev/null 2>"$work/err" || status=$?
    [ "$status" = 2 ] || fail "$* exited $status, not 2"
    grep -q "$what" "$work/err" || fail "$*: the error does not name '$what': $(cat "$work/err")"
}
expect_trouble "no revision 'v9.9.9'" --pytorch "$repo" --from v2.13.0 --to v9.9.9 "$work/spyre.yaml"
expect_trouble "is not a git checkout" --pytorch "$work" --from a --to b "$work/spyre.yaml"
expect_trouble "needs --pytorch DIR" --from a --to b "$work/spyre.yaml"
expect_trouble "no-such.yaml" --pytorch "$repo" --from v2.13.0 --to v2.14.0 "$work/no-such.yaml"
echo "upgrade-review: ok"
