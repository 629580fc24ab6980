#!/bin/sh
# The arguments objtool checks one object of the kernel with, as
# TREE's scripts/Makefile.lib makes them for CONFIG (its objtool-args-y
# table, ifdef blocks kept), where that config defers objtool to the
# link of vmlinux.o (delay-objtool: X86_KERNEL_IBT, LTO_CLANG) and so a
# build of single objects never runs it (--link: what the deferred run
# and a module's get, and what --ibt asks for). Prints nothing where objtool
# runs on each object already, or the config has no OBJTOOL.
# Usage: objtool-args.sh TREE CONFIG
set -eu

tree=${1:?usage: objtool-args.sh TREE CONFIG}
config=${2:?}
grep -q '^CONFIG_OBJTOOL=y' "$config" || exit 0
grep -Eq '^CONFIG_(X86_KERNEL_IBT|LTO_CLANG)=y' "$config" || exit 0
awk -v config="$config" '
	BEGIN {
		while ((getline l < config) > 0)
			if (l ~ /^CONFIG_[A-Za-z0-9_]+=/) { n = index(l, "="); val[substr(l, 1, n - 1)] = substr(l, n + 1) }
		depth = 0; off = 0
	}
	/^ifdef CONFIG_/ { depth++; if (!off && val[$2] != "y") off = depth; next }
	/^endif/ { if (off == depth) off = 0; depth--; next }
	off { next }
	/^objtool-args-\$\(.*\)[ \t]*\+=/ {
		cond = $0; sub(/[ \t]*\+=.*/, "", cond)
		arg = $0; sub(/.*\+=[ \t]*/, "", arg)
		on = 0
		while (match(cond, /CONFIG_[A-Za-z0-9_]+/)) {
			if (val[substr(cond, RSTART, RLENGTH)] == "y") on = 1
			cond = substr(cond, RSTART + RLENGTH)
		}
		while (match(arg, /\$\(CONFIG_[A-Za-z0-9_]+\)/))
			arg = substr(arg, 1, RSTART - 1) val[substr(arg, RSTART + 2, RLENGTH - 3)] substr(arg, RSTART + RLENGTH)
		if (on) printf "%s%s", (k++ ? " " : ""), arg
	}
	END { if (k) print " --link" }' "$tree/scripts/Makefile.lib"
