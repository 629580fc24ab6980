# Sourced by qemu/boot.sh, stale-int3.sh and storm-verdict.sh: the
# console lines that fail a boot (SPLAT_ERE), and the header of an int3
# Oops (INT3_OOPS_ERE: 6.12 prints "Oops: int3: 0000 [#1]", 6.1
# "int3: 0000 [#1]"), as EREs.
# shellcheck shell=sh disable=SC2034 # used by the scripts that source it
SPLAT_ERE='Kernel panic|WARNING:|BUG:|Oops|INFO: possible|possible circular locking|inconsistent lock state|UBSAN:|KASAN:|general protection fault|Call Trace:'
INT3_OOPS_ERE='(Oops: )?int3: [0-9a-f]{4} \[#'

# console_text CONSOLE: its lines without the serial's CRs and the
# kernel's timestamps, for the classifiers to read (write it to a file:
# dash's echo would read a backslash in the log as an escape)
console_text() {
	tr -d '\r' < "$1" | sed 's/^\[[ 0-9.]*\] //'
}
