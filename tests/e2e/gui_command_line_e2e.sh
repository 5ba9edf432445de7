#!/usr/bin/env bash
# End to end: relayhud's own command line (ui/app/command_line.h). --help and
# --version work without a display; a bad --size, --view or --now is refused
# in one line naming what the option wants, with exit 2, before any window
# or simulator starts; an unknown option is QCommandLineParser's error
# (offscreen: a GUI without a display stops before it parses anything).
# usage: gui_command_line_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset QT_QPA_PLATFORM # --help and --version choose offscreen themselves
export XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache XDG_RUNTIME_DIR=$work/run
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
fail() { echo "gui_command_line_e2e: $*" >&2; exit 1; }

"$bin/relayhud" --help >"$work/help" || fail "--help exited $?"
for option in --cache --hud --server --demo --self-test --screenshot --size --simulator --view \
              --dark --exit-after-paint --now '\[PATH...\]'; do
  grep -q -- "$option" "$work/help" || fail "--help does not list $option"
done
"$bin/relayhud" --version | grep -Eq '^relayhud [0-9]+\.[0-9]+\.[0-9]+' || fail "--version"

# refused OPTION VALUE WANTS: exit 2, one line on stderr, nothing on stdout.
refused() {
  local rc=0
  "$bin/relayhud" "--$1" "$2" --screenshot "$work/never.png" >"$work/out" 2>"$work/err" || rc=$?
  [ $rc -eq 2 ] || fail "--$1 '$2' exited $rc, not 2"
  grep -qF -- "relayhud: --$1 wants $3 (got '$2')" "$work/err" || fail "--$1 '$2': $(cat "$work/err")"
  [ ! -s "$work/out" ] || fail "--$1 '$2' printed on stdout"
  [ ! -e "$work/never.png" ] || fail "--$1 '$2' still took a screenshot"
}
refused size 10x10 "WxH, e.g. 1366x768"
refused size 1920 "WxH, e.g. 1366x768"
refused size 99999x1080 "WxH, e.g. 1366x768"
refused view nope "one of commits, prs, nightly, release, backends, doctor"
refused now yesterday "epoch seconds or a time like 2026-05-04T17:00:00Z"
refused now $'2026-13-01T00:00:00Z' "epoch seconds or a time like 2026-05-04T17:00:00Z"

rc=0
QT_QPA_PLATFORM=offscreen "$bin/relayhud" --no-such-option >/dev/null 2>"$work/err" || rc=$?
[ $rc -ne 0 ] || fail "an unknown option was accepted"
grep -q "no-such-option" "$work/err" || fail "an unknown option: $(cat "$work/err")"
echo "gui_command_line_e2e: ok"
