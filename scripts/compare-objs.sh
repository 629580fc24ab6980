#!/bin/bash
# Compares two builds of the same objects byte for byte: every section
# (those without bytes by size), the relocations and the symbol table
# (scripts/compare-elf.sh, SYMBOLS=1), __bug_table's line fields aside
# where CONFIG has DEBUG_BUGVERBOSE. Prints "OBJ: what
# differs" lines; exits 1 when one differs, 2 when one is missing or the
# comparison fails.
# Usage: compare-objs.sh DIR-A DIR-B CONFIG OBJ...
set -euo pipefail

a=${1:?usage: compare-objs.sh DIR-A DIR-B CONFIG OBJ...}
b=${2:?} config=${3:?}
shift 3
here=$(cd "$(dirname "$0")" && pwd)
status=0
for o in "$@"; do
	rc=0
	d=$(RELOCS=1 SYMBOLS=1 BUG_CONFIG=$config "$here/compare-elf.sh" "$a/$o" "$b/$o" 2>&1) || rc=$?
	[ -z "$d" ] || echo "$d" | sed "s|^|$o: |"
	[ "$rc" -le "$status" ] || status=$rc
done
exit "$status"
