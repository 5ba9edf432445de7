#!/bin/sh
# CI text reaches a terminal with its controls shown, not obeyed (issue 19):
# a test name and a failure message carrying a window-title escape and an
# OSC 52 clipboard write print as control pictures under a pseudo-terminal
# (script(1)); a pipe gets the stored bytes as they are.
set -eu
cli="$1/relayhud-cli"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
esc=$(printf '\033')
bel=$(printf '\007')
printf '<testsuite name="s" tests="1" failures="1"><testcase classname="test_x.T" name="test_%s]0;pwned%sa" file="test_x.py"><failure message="boom %s]52;c;cHduZWQ=%s">x</failure></testcase></testsuite>' \
    "$esc" "$bel" "$esc" "$bel" > "$work/r.xml"
"$cli" --cache "$work/c.sqlite" import "$work/r.xml" > /dev/null

shown=$(CLI="$cli" CACHE="$work/c.sqlite" script -qec '"$CLI" --cache "$CACHE" tests --test-run 1' /dev/null)
case "$shown" in
*"$esc"*) echo "FAIL: a raw ESC reached the terminal: $shown" | cat -v; exit 1 ;;
esac
case "$shown" in
*"test_␛]0;pwned␇a"*"boom ␛]52;c;cHduZWQ=␇"*) ;;
*) echo "FAIL: the escapes are not shown as control pictures: $shown"; exit 1 ;;
esac

piped=$("$cli" --cache "$work/c.sqlite" tests --test-run 1)
case "$piped" in
*"test_${esc}]0;pwned${bel}a"*) ;;
*) echo "FAIL: a pipe should get the stored bytes: $piped" | cat -v; exit 1 ;;
esac

# An error message naming CI text (a missing file's name) is shown the same way.
err=$(CLI="$cli" NAME="$work/r${esc}]0;t${bel}.xml" script -qec '"$CLI" --cache /dev/null/x config validate "$NAME"' /dev/null || true)
case "$err" in
*"$esc"*) echo "FAIL: a raw ESC in an error reached the terminal" ; exit 1 ;;
*"␛]0;t␇"*) ;;
*) echo "FAIL: the error does not show the escape: $err"; exit 1 ;;
esac
# A bare CR in a test name cannot return to the line's start and overwrite
# it, and a line break in a name cannot split one test into two rows, in a
# pipe as on a terminal (issue 35).
printf '<testsuite name="s" tests="2" failures="2"><testcase classname="test_y.T" name="test_cr&#13;PASSED    " file="test_y.py"><failure message="m">x</failure></testcase><testcase classname="test_y.T" name="test_lf&#10;passed      fake::row" file="test_y.py"><failure message="one&#10;two">x</failure></testcase></testsuite>' > "$work/names.xml"
"$cli" --cache "$work/n.sqlite" import "$work/names.xml" > /dev/null
piped=$("$cli" --cache "$work/n.sqlite" tests --test-run 1)
rows=$(printf '%s\n' "$piped" | wc -l)
[ "$rows" -eq 2 ] || { echo "FAIL: 2 tests gave $rows rows: $piped" | cat -v; exit 1; }
case "$piped" in
*"test_cr␍PASSED"*"test_lf␊passed      fake::row"*) ;;
*) echo "FAIL: a CR or LF in a name is not shown as its picture: $piped" | cat -v; exit 1 ;;
esac
cr=$(printf '\r')
shown=$(CLI="$cli" CACHE="$work/n.sqlite" script -qec '"$CLI" --cache "$CACHE" tests --test-run 1' /dev/null | tr -d '\r')
case "$shown" in
*"test_cr␍PASSED"*) ;;
*) echo "FAIL: a terminal does not show the CR: $shown" | cat -v; exit 1 ;;
esac
case "$("$cli" --cache "$work/n.sqlite" tests --test-run 1)" in
*"$cr"*) echo "FAIL: a raw CR reached the output"; exit 1 ;;
esac
echo "ok: controls shown under a terminal, bytes kept in a pipe, one test per row"
