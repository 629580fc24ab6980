#!/bin/sh
# Keeps the documentation true, as KTAP: the rst parses without a docutils
# warning, every event the header defines has an entry and every entry is
# an event, the selftests' list of events (bpf_events[]) is the header's,
# the rst's table of events per command is commands_test.c's, and the
# Kconfig help says what the documentation says.
# (That every documented field is in the event's format file is checked
# in the guest, by the selftest documented_fields_are_in_format.)
# Usage: check-docs.sh TREE KCONFIG
set -eu

tree=${1:?usage: check-docs.sh TREE KCONFIG}
kconfig=${2:?}
doc=$tree/Documentation/bpf/low_level_tracepoints.rst
tests=$(dirname "$0")/../selftests/bpf_tracepoints/bpf_tracepoints.h
header=$tree/include/trace/events/bpf.h
. "$(dirname "$0")/ktap.sh"

echo "KTAP version 1"
echo "1..7"

# Debian's python3 has python3-docutils (the rig installs it).
if out=$(/usr/bin/python3 - "$doc" 2>&1 <<'PY'
import sys, docutils.core
docutils.core.publish_doctree(open(sys.argv[1]).read(), source_path=sys.argv[1],
    settings_overrides={"report_level": 2, "halt_level": 2})
PY
); then
	result OK "docutils parses $(basename "$doc") without warnings"
else
	result FAIL "docutils parses $(basename "$doc") without warnings" "$out"
fi

defined=$(sed -n 's/^TRACE_EVENT\(_CONDITION\)\{0,1\}_BPF(\([a-z_0-9]*\),$/\2/p; s/^DEFINE_EVENT\(_CONDITION\)\{0,1\}_BPF([a-z_0-9]*, \([a-z_0-9]*\),$/\2/p' "$header" | sort)
# section titles: event names over a line of '-'
documented=$(awk '/^-+$/ && prev ~ /^bpf_/ { print prev } { prev = $0 }' "$doc" | tr -d ' ' | tr ',' '\n' | sort)
missing=$(echo "$defined" | grep -vxF "$documented" || true)
extra=$(echo "$documented" | grep -vxF "$defined" || true)
if [ -z "$missing" ] && [ -n "$defined" ]; then
	result OK "every event in bpf.h is documented ($(echo "$defined" | wc -l) events)"
else
	result FAIL "every event in bpf.h is documented" "undocumented: $missing"
fi
if [ -z "$extra" ]; then
	result OK "every documented event is in bpf.h"
else
	result FAIL "every documented event is in bpf.h" "not in bpf.h: $extra"
fi

# What the Kconfig help promises, the documentation says too.
flat() { tr -s ' \t\n' '   ' < "$1"; }
for phrase in "not a stable ABI" "16 bytes" "kernel developers" "bpftool" \
	      "BPF_OBJ_GET_INFO_BY_FD" "PERF_RECORD_BPF_EVENT" "may change or go away"; do
	flat "$kconfig" | grep -qF "$phrase" && flat "$doc" | grep -qF "$phrase" || missed="${missed:-}'$phrase' "
done
if [ -z "${missed:-}" ]; then
	result OK "Kconfig help and documentation agree on the promises"
else
	result FAIL "Kconfig help and documentation agree on the promises" "not in both: $missed"
fi
grep -q '^   low_level_tracepoints$' "$tree/Documentation/bpf/index.rst" && ok=OK || ok=FAIL
result $ok "the documentation is in Documentation/bpf/index.rst's toctree"
# the events the selftests walk (gate checks, the stress toggler): the
# header's, no more and no fewer; with those of bpf_events_since[] whose
# command this tree has (its release at least the one named)
release=$(sed -n 's/^VERSION = //p; s/^PATCHLEVEL = //p' "$tree/Makefile" | paste -sd.)
since=$(sed -n '/^} bpf_events_since\[\] = {$/,/^};$/p' "$tests" |
	sed -n 's/.*{ "\(bpf_[a-z_]*\)", "\([0-9.]*\)"[,} ].*/\1 \2/p' |
	while read -r event version; do
		[ "$(printf '%s\n%s\n' "$version" "$release" | sort -V | head -1)" != "$version" ] ||
			echo "$event"
	done)
listed=$( { sed -n '/^static const char \* const bpf_events\[\] = {$/,/^};$/p' "$tests" |
	grep -o '"bpf_[a-z_]*"' | tr -d '"'; echo "$since"; } | grep . | sort)
if [ -n "$listed" ] && [ "$listed" = "$defined" ]; then
	result OK "the selftests' bpf_events[] lists the header's $(echo "$listed" | wc -l) events"
else
	result FAIL "the selftests' bpf_events[] lists the header's events" \
		"$(echo "$defined" > /tmp/defined.$$; echo "$listed" | diff /tmp/defined.$$ - | sed -n 's/^[<>]/&/p'; rm -f /tmp/defined.$$)"
fi
# The table of events per command: commands_test.c's rows (the records
# of the call that works and of the one that fails), as the rst prints
# them, in the rst word for word
commands=$(dirname "$0")/../selftests/bpf_tracepoints/commands_test.c
if out=$(/usr/bin/python3 - "$commands" "$doc" 2>&1 <<'PY'
import re, sys
src = open(sys.argv[1]).read()
macros = dict(re.findall(r'^#define (\w+)\s+"([^"]*)"', src, re.M))
body = src[src.index('static const struct row rows[] = {'):]
body = body[:body.index('\n};')]
rows = []
for m in re.finditer(r'\{\s*"(\w+)",\s*\w+,\s*((?:"[^"]*"\s*|\w+\s*)+),\s*\w+,'
                     r'\s*((?:"[^"]*"\s*|\w+\s*)+)(?:,\s*[.\w =]+)*\s*\}', body):
    def val(expr):
        parts = re.findall(r'"([^"]*)"|(\w+)', expr)
        v = ''.join(a if a or not b else macros[b] for a, b in parts)
        return ', '.join(v.split(',')) if v else '-'
    rows.append((m.group(1), val(m.group(2)), val(m.group(3))))
if len(rows) < 30:
    sys.exit('only %d rows read from %s' % (len(rows), sys.argv[1]))
head = ('Command', 'Works', 'Fails')
w = [max(len(r[i]) for r in rows + [head]) for i in range(3)]
line = '  '.join('=' * x for x in w)
table = [line, '  '.join(h.ljust(x) for h, x in zip(head, w)).rstrip(), line]
table += ['  '.join(c.ljust(x) for c, x in zip(r, w)).rstrip() for r in rows] + [line]
if '\n'.join(table) + '\n' not in open(sys.argv[2]).read():
    print('\n'.join(table))
    sys.exit('the rst has no such table (above: what commands_test.c says)')
print(len(rows))
PY
); then
	result OK "the rst's table of events per command is commands_test.c's ($out commands)"
else
	result FAIL "the rst's table of events per command is commands_test.c's" "$out"
fi
ktap_status
