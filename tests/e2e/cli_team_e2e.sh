#!/usr/bin/env bash
# End to end: relayhud-cli team init|sync|status against a throwaway
# PostgreSQL (a Unix socket in a temporary folder, as `nobody` when run as
# root; the recipe in docs/team-server-notes.md): created, then up to date; a
# password from PGPASSWORD is used and never printed; two caches share a tag
# through the server; status says connected, unsent N, last sync T, and
# offline with the changes waiting when the server is down, which a sync
# delivers once it is back; a teammate's hostile rows are skipped and said
# once; a held lock is a one-line error within --timeout; a server that is
# down is a one-line error with exit 1; usage errors exit 2.
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
grep -q "schema 3 (created); your changes are signed relayhud" "$work/out" \
    || fail "created: $(cat "$work/out")"
cli team init --server "$server" >"$work/out" || fail "init again"
grep -q "schema 3 (up to date)" "$work/out" || fail "again: $(cat "$work/out")"
! grep -q "s3cret" "$work/out" "$work/err" || fail "the password was printed"

# Two caches, one server: Alice's imported tag reaches Bob, signed by the
# server's session user.
sha=0123456789abcdef0123456789abcdef01234567
cat >"$work/tags.json" <<EOF
{"format": "relayhud-triage", "version": 1, "tags": [
 {"repo": "torch-spyre/torch-spyre", "workflow": "pull", "job": "test (1)", "sha": "$sha",
  "attempt": 1, "test": "test/x.py::TestX::test_y", "class": "flaky", "note": "retry passes",
  "bug": "", "author": "alice", "time": "2026-12-01T10:00:00Z"}]}
EOF
cli --cache "$work/alice.sqlite" triage import "$work/tags.json" >/dev/null || fail "import"
cli --cache "$work/alice.sqlite" team status --server "$server" >"$work/out" \
    || fail "status: $(cat "$work/out")"
grep -qx "connected to .* as relayhud" "$work/out" || fail "status: $(cat "$work/out")"
grep -qx "unsent 0" "$work/out" || fail "unsent before joining: $(cat "$work/out")"
grep -qx "last sync never" "$work/out" || fail "never synced: $(cat "$work/out")"
cli --cache "$work/alice.sqlite" team sync --server "$server" >"$work/out" 2>"$work/err" \
    || fail "sync: $(cat "$work/err")"
grep -q ": pushed 2, pulled 0 from the team" "$work/out" || fail "alice's sync: $(cat "$work/out")"
cli --cache "$work/bob.sqlite" team sync --server "$server" >"$work/out" \
    || fail "bob's sync"
grep -q "pushed 0, pulled 2 from the team (2 applied), 0 conflict(s)" "$work/out" \
    || fail "bob's sync: $(cat "$work/out")"
cli --cache "$work/bob.sqlite" triage list >"$work/out" || fail "list"
grep -q "flaky" "$work/out" && grep -q "retry passes" "$work/out" && grep -q "relayhud" "$work/out" \
    || fail "bob's tags: $(cat "$work/out")"
cli --cache "$work/alice.sqlite" team status --server "$server" >"$work/out" || fail "status"
grep -qx "unsent 0" "$work/out" || fail "unsent: $(cat "$work/out")"
grep -qE "^last sync 20[0-9]{2}-[0-9]{2}-[0-9]{2}T" "$work/out" || fail "last sync: $(cat "$work/out")"

# Down: Alice tags on; status says offline with the change waiting; once the
# server is back one sync delivers it, once.
stop
sed -e 's/"flaky"/"infra"/' -e 's/2026-12-01T10/2026-12-02T10/' "$work/tags.json" >"$work/later.json"
cli --cache "$work/alice.sqlite" triage import "$work/later.json" >/dev/null || fail "import later"
status=0
cli --cache "$work/alice.sqlite" team status --server "$server" --timeout 2 >"$work/out" \
    || status=$?
[ "$status" = 1 ] || fail "status exit $status with the server down"
grep -q "^offline: cannot reach the team server" "$work/out" || fail "offline: $(cat "$work/out")"
grep -qx "unsent 1" "$work/out" || fail "waiting: $(cat "$work/out")"
status=0
cli --cache "$work/alice.sqlite" team sync --server "$server" --timeout 2 >"$work/out" \
    2>"$work/err" || status=$?
[ "$status" = 1 ] || fail "sync exit $status with the server down"
"${as[@]}" "$pgbin/pg_ctl" -D "$work/data" -l "$work/server.log" \
    -o "-k $work -c listen_addresses=''" -w start >/dev/null || fail "pg_ctl start again"
cli --cache "$work/alice.sqlite" team sync --server "$server" >"$work/out" || fail "sync back"
grep -q ": pushed 1," "$work/out" || fail "delivered: $(cat "$work/out")"
cli --cache "$work/alice.sqlite" team sync --server "$server" >"$work/out" || fail "sync again"
grep -q ": pushed 0, pulled 0" "$work/out" || fail "twice: $(cat "$work/out")"
cli --cache "$work/bob.sqlite" team sync --server "$server" >"$work/out" || fail "bob again"
grep -q "pulled 1 from the team (1 applied)" "$work/out" || fail "bob got: $(cat "$work/out")"
[ "$(psql -X -A -t -q "$server" -c "SELECT count(*) FROM relayhud_change")" = 3 ] \
    || fail "not exactly once on the server"

# A teammate's hostile rows, written with psql: each sync says once what it
# skipped, status keeps the count, and nothing of them reaches a cache.
row() {
    psql -X -q "$server" -c "INSERT INTO relayhud_change (change_id, kind, repo, workflow, job,
        sha, attempt, test, field, value, client_time) VALUES (gen_random_uuid(), 'triage',
        'o/r', 'w', 'j', $1, 1, '', $2, to_jsonb($3::text), now())" >/dev/null 2>&1
}
row "'../x'" "'class'" "'infra'" || fail "insert a path for a SHA"
row "'abc'" "'bug'" "'javascript:alert(1)'" || fail "insert a javascript: link"
row "'abc'" "'class'" "'no such class'" || fail "insert an unknown class"
! row "repeat('a', 200)" "'class'" "'infra'" || fail "the server took a 200-byte SHA"
cli --cache "$work/carol.sqlite" team sync --server "$server" >"$work/out" || fail "carol"
[ "$(grep -c "skipped" "$work/out")" = 1 ] || fail "skipped said once: $(cat "$work/out")"
grep -qx "skipped 3 changes the team server holds that this RelayHUD cannot use (1 unknown class, 1 invalid SHA, 1 invalid link)" \
    "$work/out" || fail "skipped: $(cat "$work/out")"
cli --cache "$work/carol.sqlite" team status --server "$server" >"$work/out" || fail "status"
grep -q "^skipped 3 changes .* (since joining)$" "$work/out" || fail "status: $(cat "$work/out")"
cli --cache "$work/carol.sqlite" triage list >"$work/out" || fail "carol's list"
! grep -q "o/r" "$work/out" || fail "a hostile row was stored: $(cat "$work/out")"

# Someone holds the append lock: --timeout 2 is a one-line error naming them
# within the timeout, and the change still waits.
psql -X -q "$server application_name=holdout" \
    -c "SELECT pg_advisory_lock(7365827402), pg_sleep(30)" >/dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do
    [ "$(psql -X -A -t -q "$server" -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")" = 1 ] && break
    sleep 0.1
done
sed -e 's/test_y/test_z/' "$work/tags.json" >"$work/another.json"
cli --cache "$work/alice.sqlite" triage import "$work/another.json" >/dev/null || fail "import another"
started=$(date +%s%N)
status=0
cli --cache "$work/alice.sqlite" team sync --server "$server" --timeout 2 >"$work/out" \
    2>"$work/err" || status=$?
took=$((($(date +%s%N) - started) / 1000000))
psql -X -q "$server" -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
    WHERE application_name = 'holdout'" >/dev/null
wait "$holder" || true
[ "$status" = 1 ] || fail "sync exit $status with the lock held"
[ "$(wc -l <"$work/err")" = 1 ] || fail "not one line: $(cat "$work/err")"
grep -q "append lock is held by role 'relayhud' (application 'holdout'" "$work/err" \
    || fail "who holds it: $(cat "$work/err")"
[ "$took" -lt 4000 ] || fail "took $took ms with --timeout 2"
cli --cache "$work/alice.sqlite" team sync --server "$server" >"$work/out" || fail "sync after"
grep -q ": pushed 2," "$work/out" || fail "the waiting change: $(cat "$work/out")"

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
