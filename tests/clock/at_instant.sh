#!/usr/bin/env bash
# Runs a command with the system clock at an awkward instant (Debian's
# faketime: libfaketime, multi-threaded, the monotonic clock left alone), after
# checking that the clock really reads it there. Every test process pins its
# own clock to the tests' "now" (tests/core/test_world.h), so a test that
# passes normally and fails here reads the system clock or the calendar where
# it should not.
#
#   at_instant.sh midnight|dst|y2038 COMMAND [ARG...]
#
#   midnight  2026-12-31 23:59:30 UTC: the day, month and year end 30 s in
#   dst       2027-03-28 00:59:30 UTC in Europe/Berlin: 01:59:30 CET, and 30 s
#             later 03:00 CEST (the spring change; that day has 23 hours)
#   y2038     2038-01-20 00:00:00 UTC: past 2^31 seconds, where a 32-bit
#             time_t has wrapped
set -euo pipefail

instant=${1:-}
case "$instant" in
midnight) at="2026-12-31 23:59:30 UTC" zone=UTC ;;
dst) at="2027-03-28 00:59:30 UTC" zone=Europe/Berlin ;;
y2038) at="2038-01-20 00:00:00 UTC" zone=UTC ;;
*)
    echo "usage: at_instant.sh midnight|dst|y2038 COMMAND [ARG...]" >&2
    exit 2
    ;;
esac
shift
[ $# -gt 0 ] || { echo "at_instant.sh: no command" >&2; exit 2; }
# libfaketime preloaded directly, not through the `faketime` wrapper: the
# wrapper shares its start time through a POSIX semaphore and shared memory
# named after its pid, and one left behind by a killed run makes a later
# wrapper with the same pid fail ("sem_open: File exists"). Every process
# here is given the same offset instead (below), and nothing is shared.
lib=
for candidate in /usr/lib/*/faketime/libfaketimeMT.so.1 /usr/lib/faketime/libfaketimeMT.so.1; do
    [ -e "$candidate" ] && { lib=$candidate; break; }
done
[ -n "$lib" ] || { echo "at_instant.sh: needs libfaketime (packaging/install-deps.sh)" >&2; exit 2; }

export TZ=$zone
# A temp folder of its own: the same tests may run at the same time at their
# usual time and at another instant, and some name their scratch folders after
# themselves. World-writable like /tmp (the PostgreSQL tests run as nobody).
TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/relayhud-$instant-XXXXXX")
chmod 1777 "$TMPDIR"
export TMPDIR
trap 'rm -rf "$TMPDIR"' EXIT
# libfaketime moves the clock by an offset from the real one, the way the
# wrapper does (an "@date" would be read in whatever zone the program sets,
# and `date -u` sets UTC); the monotonic clock is left alone (timeouts and
# deadlines). It shows file times shifted like the clock (stat); FAKE_UTIME
# makes it shift the times a program sets (utimensat) back the same way, so
# that a file aged by a test reads as old as it was set. The offset is read
# once: Debian 12's libfaketime (0.9.10) reads FAKETIME again every 10 s
# without a lock, a race fixed upstream later (wolfcw/libfaketime#488, #547)
# that kills multi-threaded programs at random.
target=$(date -u -d "$at" +%s)
offset=$((target - $(date -u +%s)))
run() {
    LD_PRELOAD="$lib${LD_PRELOAD:+:$LD_PRELOAD}" FAKETIME="+$offset" \
        FAKETIME_CACHE_DURATION=86400 FAKETIME_DONT_FAKE_MONOTONIC=1 FAKE_UTIME=1 "$@"
}
seen=$(run date -u +%s)
if [ $((seen - target)) -lt 0 ] || [ $((seen - target)) -gt 5 ]; then
    echo "at_instant.sh: faketime did not move the clock: $(run date -u) (wanted $at)" >&2
    exit 1
fi
echo "clock: $(run date -u '+%F %T UTC') ($(run date '+%F %T %Z'))"
status=0
run "$@" || status=$?
exit $status
