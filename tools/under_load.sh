#!/bin/sh
# Run a command beside CPU hogs (default: `make test` beside 6), as a shared CI runner or a busy
# laptop would, and report its status and wall time with the load averages seen meanwhile:
#
#     tools/under_load.sh              # make test beside 6 busy processes
#     HOGS=3 tools/under_load.sh make unit
#
# The hogs are ended however the command ends.
set -u
hogs=${HOGS:-6}
[ $# -gt 0 ] || set -- make test
pids=""
i=0
while [ "$i" -lt "$hogs" ]; do
    python3 -c "while True: pass" &
    pids="$pids $!"
    i=$((i + 1))
done
( while :; do cut -d' ' -f1 /proc/loadavg; sleep 60; done ) > "${TMPDIR:-/tmp}/under_load.$$" &
pids="$pids $!"
trap 'kill $pids 2>/dev/null' EXIT INT TERM
start=$(date +%s)
"$@"
status=$?
seconds=$(( $(date +%s) - start ))
loads=$(tr '\n' ' ' < "${TMPDIR:-/tmp}/under_load.$$")
rm -f "${TMPDIR:-/tmp}/under_load.$$"
echo "under_load: '$*' ended with status $status after $((seconds / 60)) min $((seconds % 60)) s beside $hogs busy processes; 1-minute load averages: $loads"
exit $status
