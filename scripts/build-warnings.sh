#!/bin/sh
# The warnings and errors of a kernel build's log, one per line, as the
# gates compare them (scripts/check-gates.sh): "FILE: warning: TEXT",
# sorted, without what moves when lines are added above them: the tree's
# path, the line and column (gcc and sparse print both, kernel-doc the
# line alone, objtool neither) and a function's offset (objtool's
# "func+0x1c"). Lines of scripts/ are the build's own tools.
# Usage: build-warnings.sh TREE < LOG
set -eu

tree=${1:?usage: build-warnings.sh TREE < LOG}
sed -n -e "s|^$tree/||" \
	-e 's/^\([^: ]*\):\([0-9]*:\)\{0,2\} *\(warning\|error\): /\1: \3: /' \
	-e 's/+0x[0-9a-f]*\b/+0x?/g' \
	-e '/^[^: ]*: \(warning\|error\): /p' |
	grep -v '^scripts/' | sort || true
