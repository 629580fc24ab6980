#!/bin/bash
# The gates a series meets before it is sent, printed as KTAP:
# - Debian's config of this tree (config.amd64_none_amd64), option off and
#   on: the objects the series touches build with W=1 and sparse (C=1)
#   and warn of nothing the unpatched tree, built the same way, does not;
# - make SPHINXDIRS=bpf htmldocs builds the new page with no warning, and
#   the bpf index links it;
# - the cover letter's To: and Cc: are what get_maintainer.pl gives for
#   the series (To: the maintainers, Cc: reviewers and lists);
# - make kselftest-merge over x86_64's defconfig, as CI systems make a
#   kernel for kselftest, gives every line of the selftests' config.
# The unpatched build checks out base in TREE; HEAD is restored on exit.
# Usage: check-gates.sh TREE PATCHDIR BUILDDIR KVER
set -euo pipefail

tree=$(cd "${1:?usage: check-gates.sh TREE PATCHDIR BUILDDIR KVER}" && pwd)
patchdir=$(cd "${2:?}" && pwd)
mkdir -p "${3:?}"
bdir=$(cd "$3" && pwd)
kver=${4:?}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/ktap.sh"

debian=/usr/src/linux-config-$kver/config.amd64_none_amd64.xz
option=CONFIG_BPF_LOW_LEVEL_TRACEPOINTS
home=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
# the jobs run beside the Debian builds (start_beside) are stopped first
beside=
trap 'stop_beside; git -C "$tree" checkout -q "$home"' EXIT
# bash runs the EXIT trap when INT or TERM ends it this way
trap 'exit 130' INT
trap 'exit 143' TERM

echo "KTAP version 1"
echo "1..9"

# The kernel's C files the series changes (not the selftests under
# tools/), and core.c, where CREATE_TRACE_POINTS makes the events' code
objs=$( { git -C "$tree" diff --name-only base..HEAD -- '*.c' ':!tools/'; echo kernel/bpf/core.c; } |
	sort -u | sed 's/\.c$/.o/')
# ... but those Debian's config builds: one whose Makefile line needs a
# CONFIG_ the config leaves unset (bpf-lirc.o needs BPF_LIRC_MODE2, which
# needs RC_CORE=y) cannot be built alone. Named, and left out.
config=$(xzcat "$debian")
unbuilt=
for o in $objs; do
	for sym in $(grep -Fw "${o##*/}" "$tree/${o%/*}/Makefile" | grep -o 'CONFIG_[A-Z0-9_]*' | sort -u); do
		if ! grep -Eq "^$sym=(y|m)$" <<< "$config"; then
			unbuilt="$unbuilt $o ($sym)"
			objs=$(echo "$objs" | grep -vxF "$o")
			break
		fi
	done
done
[ -z "$unbuilt" ] || echo "# not built by Debian's config, so not checked here:$unbuilt"

# debian_build NAME [CONFIG-LINE...]: W=1 C=1 build of $objs on Debian's
# config, and objtool over them where the config defers it to the link;
# their warnings and (sparse's) errors (scripts/build-warnings.sh) in
# NAME.warn
debian_build() {
	local name=$1 out=$bdir/debian
	shift
	mkdir -p "$out"
	# no objects or config of an earlier run may stand in for this one's
	rm -rf "$bdir/$name.objs" "$bdir/$name.config"
	{ xzcat "$debian"; printf '%s\n' "$@"; } > "$out/.config"
	make -s -C "$tree" O="$out" olddefconfig > "$bdir/$name.log" 2>&1
	# built anew each time, so every warning is seen (ccache replays them)
	(cd "$out" && rm -f $objs)
	# shellcheck disable=SC2086
	nice make -C "$tree" O="$out" -j"$(nproc)" W=1 C=1 $objs >> "$bdir/$name.log" 2>&1 || return 1
	cp "$out/.config" "$bdir/$name.config"
	# kept for the byte comparison of off with unpatched
	mkdir -p "$bdir/$name.objs"
	# shellcheck disable=SC2086
	(cd "$out" && cp --parents $objs "$bdir/$name.objs/")
	# where the config defers objtool to vmlinux.o's link (6.12's IBT),
	# it runs here, on copies, as that link would run it
	local args
	args=$("$here/objtool-args.sh" "$tree" "$bdir/$name.config")
	if [ -n "$args" ]; then
		# no objtool is no check: the build fails, saying so
		[ -x "$out/tools/objtool/objtool" ] ||
			{ echo "check-gates: no $out/tools/objtool/objtool to run" >> "$bdir/$name.log"; return 1; }
		rm -rf "$bdir/$name.objtool"
		cp -r "$bdir/$name.objs" "$bdir/$name.objtool"
		# shellcheck disable=SC2086
		(cd "$bdir/$name.objtool" && for o in $objs; do
			echo "  OBJTOOL $o"
			"$out/tools/objtool/objtool" $args "$o" 2>&1 || echo "$o: error: objtool exited $?"
		done) >> "$bdir/$name.log"
	fi
	"$here/build-warnings.sh" "$tree" < "$bdir/$name.log" > "$bdir/$name.warn"
}

# new_warnings NAME: what NAME warns of beyond the unpatched build
new_warnings() {
	comm -13 "$bdir/base.warn" "$bdir/$1.warn"
}

# htmldocs and kselftest-merge read the tree at HEAD and are one core's
# work each: they run beside the Debian builds at HEAD (make -j on two
# cores leaves one idle in make's own walk and the links); each leaves
# its status in NAME.rc. Without Debian's config they run alone.
# niced as the kernel builds are: guests may be booting beside
htmldocs() {
	nice make -C "$tree" O="$bdir/htmldocs" SPHINXDIRS=bpf htmldocs > "$bdir/htmldocs.log" 2>&1
}
# defconfig, then every selftest's config merged in (ours as the series
# carries it, 8/8); each line of ours must come out as asked
kselftest_merge() {
	local ksft_cfg=$tree/tools/testing/selftests/bpf_tracepoints/config
	mkdir -p "$bdir/kselftest-merge"
	nice make -s -C "$tree" O="$bdir/kselftest-merge" x86_64_defconfig > "$bdir/kselftest-merge.log" 2>&1 &&
	nice make -s -C "$tree" O="$bdir/kselftest-merge" kselftest-merge >> "$bdir/kselftest-merge.log" 2>&1 &&
	"$here/check-config.sh" "$bdir/kselftest-merge/.config" "$ksft_cfg" >> "$bdir/kselftest-merge.log" 2>&1
}
status_to() {	# status_to FILE COMMAND...: COMMAND's exit status in FILE
	local file=$1 rc=0
	shift
	"$@" || rc=$?
	echo "$rc" > "$bdir/$file"
}
# Each job is a process group of its own (set -m), so that an interrupt
# stops it whole (background jobs of a script ignore SIGINT).
start_beside() {
	rm -rf "$bdir/htmldocs/Documentation/output/bpf" "$bdir"/*.rc
	set -m
	status_to htmldocs.rc htmldocs &
	beside="$beside $!"
	status_to kselftest-merge.rc kselftest_merge &
	beside="$beside $!"
	set +m
}
wait_beside() {
	[ -n "$beside" ] || start_beside
	# shellcheck disable=SC2086
	wait $beside
	beside=
}
stop_beside() {
	local pid
	for pid in $beside; do
		kill -TERM -- "-$pid" 2>/dev/null || true
	done
	wait
}

if [ ! -f "$debian" ]; then
	for t in "builds unpatched" "builds off" "builds on"; do
		result FAIL "Debian config: W=1 C=1 $t" "no $debian (package linux-config-$kver)"
	done
	result FAIL "Debian config: W=1 C=1 off adds no warning" "not built"
	result FAIL "Debian config: W=1 C=1 on adds no warning" "not built"
	result FAIL "Debian config: off objects are the unpatched ones byte for byte" "not built"
else
	git -C "$tree" checkout -q base
	if debian_build base; then
		result OK "Debian config: W=1 C=1 builds unpatched ($(echo $objs))"
	else
		result FAIL "Debian config: W=1 C=1 builds unpatched" "$(tail -20 "$bdir/base.log")"
	fi
	git -C "$tree" checkout -q "$home"
	start_beside
	for cfg in off on; do
		if [ $cfg = on ]; then line="$option=y"; else line="# $option is not set"; fi
		if debian_build $cfg "$line" && grep -qxF "$line" "$bdir/$cfg.config"; then
			result OK "Debian config: W=1 C=1 builds $cfg"
		else
			result FAIL "Debian config: W=1 C=1 builds $cfg" \
				"$(grep -E "^(# )?$option[= ]" "$bdir/$cfg.config" 2>/dev/null; tail -20 "$bdir/$cfg.log")"
		fi
	done
	for cfg in off on; do
		added=$(new_warnings $cfg 2>&1 || true)
		if [ -z "$added" ] && [ -s "$bdir/$cfg.config" ]; then
			result OK "Debian config: W=1 C=1 $cfg adds no warning ($(wc -l < "$bdir/$cfg.warn") as unpatched)"
		else
			result FAIL "Debian config: W=1 C=1 $cfg adds no warning" "${added:-not built}"
		fi
	done
	# Zero cost where it matters most, a distribution's build: each
	# object, option off, is the unpatched one byte for byte in every
	# allocated section and its relocations (what the linker makes of
	# them), __bug_table's line numbers aside. Both are built W=1 C=1.
	name="Debian config: off objects are the unpatched ones byte for byte (every section and relocation)"
	# shellcheck disable=SC2086
	if differ=$("$here/compare-objs.sh" "$bdir/base.objs" "$bdir/off.objs" "$bdir/off.config" $objs 2>&1); then
		result OK "$name: $(echo $objs)" "$differ"
	else
		result FAIL "$name" "$differ"
	fi
fi

# htmldocs of the bpf docs: no warning names the page, and the index links it
wait_beside
page=low_level_tracepoints
html=$bdir/htmldocs/Documentation/output/bpf
if [ "$(cat "$bdir/htmldocs.rc")" = 0 ] &&
	[ -s "$html/$page.html" ] && grep -q "href=\"$page.html\"" "$html/index.html" &&
	! grep -E "$page.*(WARNING|ERROR|SEVERE|CRITICAL)" "$bdir/htmldocs.log" >/dev/null; then
	result OK "htmldocs SPHINXDIRS=bpf: $page.html, no warning, in the bpf index"
else
	result FAIL "htmldocs SPHINXDIRS=bpf: $page.html, no warning, in the bpf index" \
		"$(grep -E "$page|ERROR|Error" "$bdir/htmldocs.log" | head -20; tail -5 "$bdir/htmldocs.log";
		   [ -s "$html/$page.html" ] || echo "no $html/$page.html")"
fi

# get_maintainer.pl for the series against the cover letter's To: and Cc:
cover=$patchdir/0000-cover-letter.patch
patches=$(grep -v '^#' "$patchdir/series" | sed "s|^|$patchdir/|")
addresses() {	# the addresses in get_maintainer's lines, or in a header's
	grep -oE '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+' | sort -u
}
header() {	# header NAME: that header of the cover letter, with its continuations
	awk -v h="$1:" '/^$/ { exit } $1 == h { on = 1; print; next } on && /^[ \t]/ { print; next } { on = 0 }' "$cover"
}
# shellcheck disable=SC2086
gm() { (cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats "$@" $patches); }
want_to=$(gm --nor --nol | addresses)
want_all=$(gm | addresses)
have_to=$(header To | addresses)
have_cc=$(header Cc | addresses)
have_all=$(printf '%s\n%s\n' "$have_to" "$have_cc" | grep . | sort -u)
if [ -n "$want_all" ] && [ "$want_to" = "$have_to" ] && [ "$want_all" = "$have_all" ]; then
	result OK "cover letter To:/Cc: are get_maintainer.pl's ($(echo "$want_all" | wc -l) addresses)"
else
	result FAIL "cover letter To:/Cc: are get_maintainer.pl's" \
		"$(echo "To: want: $want_to"; echo "To: have: $have_to"
		   echo "missing: $(comm -23 <(echo "$want_all") <(echo "$have_all") | tr '\n' ' ')"
		   echo "extra: $(comm -13 <(echo "$want_all") <(echo "$have_all") | tr '\n' ' ')")"
fi
# kselftest-merge (run beside the Debian builds: kselftest_merge)
if [ "$(cat "$bdir/kselftest-merge.rc")" = 0 ]; then
	result OK "kselftest-merge over x86_64_defconfig: every line of the selftests' config"
else
	result FAIL "kselftest-merge over x86_64_defconfig: every line of the selftests' config" \
		"$(grep -E 'check-config|rror' "$bdir/kselftest-merge.log" | tail -20)"
fi
ktap_status
