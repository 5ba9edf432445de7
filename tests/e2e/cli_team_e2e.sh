#!/usr/bin/env bash
# End to end: relayhud-cli team init against a throwaway PostgreSQL (a Unix
# socket in a temporary folder, as `nobody` when run as root; the recipe in
# docs/team-server-notes.md): created, then up to date; a password from
# PGPASSWORD is used and never printed; a server that is down is a one-line
# error with exit 1; usage errors exit 2.
# usage: cli_team_e2e.sh BIN_DIR
set -euo pipefail
bin=$1
work=$(mktemp -d)
fail() { echo "FAIL: $*" >&2; exit 1; }
cli() { "$bin/relayhud-cli" "$@"; }
pgbin=$(pg_config --bindir)
as=()
if [ "$(id -u)" = 0 ]; then
    chown nobody:nogroup "$work"
    as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
stop() { "${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -m fast -w stop >/dev/null 2>&1 || true; }
trap 'stop; rm -rf "$work"' EXIT
echo s3cret-pw >"$work/pw"
chmod 600 "$work/pw"
[ "${#as[@]}" = 0 ] || chown nobody:nogroup "$work/pw"
"${as[@]}" env HOME="$work" "$pgbin/initdb" -D "$work/data" -A scram-sha-256 -U relayhud \
    --pwfile="$work/pw" -E UTF8 --locale=C.UTF-8 >"$work/initdb.log" 2>&1 \
    || { cat "$work/initdb.log" >&2; fail "initdb"; }
"${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/server.log" \
    -o "-k $work -c listen_addresses=''" -w start >/dev/null || fail "pg_ctl start"
server="host=$work dbname=postgres user=relayhud"

# No password: the server asks for one, and the message says why.
status=0
PGPASSFILE=/nonexistent cli team init --server "$server" >"$work/out" 2>"$work/err" || status=$?
[ "$status" = 1 ] || fail "exit $status without a password"
grep -q "cannot reach the team server" "$work/err" || fail "no clear error: $(cat "$work/err")"

export PGPASSWORD=s3cret-pw
cli team init --server "$server" >"$work/out" 2>"$work/err" || fail "init: $(cat "$work/err")"
grep -q "schema 1 (created); your changes are signed relayhud" "$work/out" \
    || fail "created: $(cat "$work/out")"
cli team init --server "$server" >"$work/out" || fail "init again"
grep -q "schema 1 (up to date)" "$work/out" || fail "again: $(cat "$work/out")"
! grep -q "s3cret" "$work/out" "$work/err" || fail "the password was printed"

# Down: a one-line error, exit 1.
stop
status=0
cli team init --server "$server" --timeout 2 >"$work/out" 2>"$work/err" || status=$?
[ "$status" = 1 ] || fail "exit $status with the server down"
[ "$(wc -l <"$work/err")" = 1 ] || fail "not one line: $(cat "$work/err")"

# Usage.
status=0; cli team >/dev/null 2>&1 || status=$?; [ "$status" = 2 ] || fail "team: exit $status"
status=0; cli team init >/dev/null 2>&1 || status=$?; [ "$status" = 2 ] || fail "no --server: exit $status"
echo "ok"
