#!/bin/sh
# Proves that the off kernel pays nothing, as KTAP. The zero-cost pair
# (scripts/walk-series.sh: the unpatched tree, the tree's "base" commit,
# and the full series, both with the off config and without IKCONFIG,
# defconfigs/zero-cost) is compared: .text byte for byte; every other
# section byte for byte but for the symbols scripts/zero-cost-reasons
# names, each with its reason (a differing byte in any other symbol
# fails, named); bloat-o-meter 0/0, equal size(1), equal spans of the
# jump table, tracepoint pointers and ftrace events. The guests' off
# kernel has none of the series' event symbols, and the .config it
# embeds differs from the unpatched one's by the option's one line. Then
# Debian's production config: the option stays unset, and is not offered
# at all without DEBUG_KERNEL. (Debian's config, built, is compared
# object by object in scripts/check-gates.sh.)
# Usage: zero-cost-check.sh TREE BUILDPREFIX (compares
#        BUILDPREFIX-baseline/zero-cost.vmlinux with
#        BUILDPREFIX-zero-cost/vmlinux; the guests' kernels are
#        BUILDPREFIX-baseline, -off and -on)
set -eu

tree=$(cd "${1:?usage: zero-cost-check.sh TREE BUILDPREFIX}" && pwd)
prefix=${2:?}
base=$prefix-baseline/zero-cost.vmlinux
off=$prefix-zero-cost/vmlinux
. "$(dirname "$0")/ktap.sh"

echo "KTAP version 1"
echo "1..12"
for f in "$base" "$off" "$prefix-baseline/vmlinux" "$prefix-off/vmlinux" "$prefix-on/vmlinux"; do
	[ -f "$f" ] || { echo "zero-cost: $f is missing (make walk first)" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
# Every section with bytes, in one comparison (__bug_table may differ in
# its entries' line fields alone, as the series adds lines above
# WARN_ON()s: BUG_CONFIG, scripts/compare-elf.sh)
rc=0
all=$(MAX_NAMES=100000 BUG_CONFIG=$prefix-zero-cost/.config "$here/compare-elf.sh" "$base" "$off" 2>&1) ||
	rc=$?
# 0: equal, 1: they differ (the lines say where), else the comparison failed
[ "$rc" -le 1 ] || all="compare-elf failed ($rc): $all"
# The code, byte for byte: any byte named by the function that holds it
# (awk alone, and no "|| true": a reader that fails must stop the check)
d=$(echo "$all" | awk '/^\.text:/ { for (i = 1; i <= NF && i <= 26; i++) printf "%s%s", (i > 1 ? " " : ""), $i
	if (NF > 26) printf " ..."; print "" }')
if [ "$rc" -le 1 ] && [ -z "$d" ]; then
	result OK ".text unpatched vs off: byte for byte ($(size -A "$off" | awk '$1 == ".text" { print $2 }') bytes)"
else
	result FAIL ".text unpatched vs off: byte for byte" "${d:-$all}"
fi
# Every other section: what differs must be a symbol the reasons file
# names (and every symbol of a differing section is named).
reasons=$here/zero-cost-reasons
d=$(echo "$all" | grep -v '^\.text:' || true)
unexplained=$(echo "$d" | awk -v r="$reasons" '
	BEGIN { while ((getline l < r) > 0) if (l !~ /^#/ && l != "") { split(l, f, " "); ok[f[1]] = 1 } }
	/^$/ || /^__bug_table: line numbers only/ { next }
	/ bytes differ in / {
		sec = $1; sub(/.* bytes differ in /, "")
		# names may hold no space but "(after X)": split on known words
		n = split($0, w, " "); bad = ""
		for (i = 1; i <= n; i++) if (!(w[i] in ok)) bad = bad " " w[i]
		if (bad != "") print sec " unexplained:" bad
		next
	}
	{ print }')
explained=$(echo "$d" | grep '^__bug_table: line numbers only' || true
echo "$d" | grep ' bytes differ in ' | while read -r sec _ _ _ _ names; do
	for n in $names; do
		printf '%s %s: %s\n' "$sec" "$n" "$(awk -v n="$n" '$1 == n { $1 = ""; print substr($0, 2); exit }' "$reasons")"
	done
done)
if [ -z "$unexplained" ]; then
	result OK "other sections unpatched vs off: every differing byte is a symbol with its reason ($(echo "$explained" | grep -c . || true) symbols)" "$explained"
else
	result FAIL "other sections unpatched vs off: every differing byte is a symbol with its reason" \
		"$unexplained"
fi

bloat=$("$tree/scripts/bloat-o-meter" "$base" "$off" 2>&1 || true)
check "bloat-o-meter unpatched vs off" "add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)" \
	"$(echo "$bloat" | head -1)"
check "size(1) unpatched vs off" "$(size "$base" | tail -1 | cut -f1-4)" \
	"$(size "$off" | tail -1 | cut -f1-4)"

# the bytes between __start_SECTION and __stop_SECTION (sections are far
# below 4 GiB: the low 32 bits of the addresses are enough)
span() {
	a=$(nm "$1" | awk -v s="__start_$2" '$3 == s { print substr($1, 9) }')
	b=$(nm "$1" | awk -v s="__stop_$2" '$3 == s { print substr($1, 9) }')
	[ -n "$a" ] && [ -n "$b" ] || { echo "no __start_/__stop_$2 in $1"; return; }
	echo $((0x$b - 0x$a))
}
for section in __jump_table __tracepoints_ptrs ftrace_events; do
	want=$(span "$base" $section)
	case "$want" in
	[0-9]*) check "$section bytes unpatched vs off" "$want" "$(span "$off" $section)" ;;
	*) result FAIL "$section bytes unpatched vs off" "$want" ;;
	esac
done

# Every event and class the series defines, from its header.
names=$(sed -n 's/^\(TRACE_EVENT_BPF\|DECLARE_EVENT_CLASS_BPF\)(\([a-z_0-9]*\),$/\2/p; s/^DEFINE_EVENT_BPF([a-z_0-9]*, \([a-z_0-9]*\),$/\1/p' \
	"$tree/include/trace/events/bpf.h" | sort -u)
pattern="^(__tracepoint_|__traceiter_|__probestub_|trace_event_raw_event_|perf_trace_|event_class_|event_|print_fmt_|trace_event_fields_)($(echo $names | tr ' ' '|'))\$"
found_off=$(nm "$prefix-off/vmlinux" | awk '{ print $3 }' | grep -E "$pattern" || true)
found_on=$(nm "$prefix-on/vmlinux" | awk '{ print $3 }' | grep -Ec "$pattern" || true)
check "no event symbol of the series in the guests' off kernel ($(echo $names | wc -w) names)" "" "$found_off"
# the same pattern must find them where they are, or it proves nothing
if [ "$found_on" -gt 0 ]; then
	result OK "the symbol pattern finds $found_on symbols in the on kernel"
else
	result FAIL "the symbol pattern finds symbols in the on kernel" "pattern: $pattern"
fi

# The guests' kernels embed their .config (IKCONFIG): the off one's is
# the unpatched one's and Kconfig.debug's menu, which holds the option
# alone, unset; no other line (what a kernel with IKCONFIG pays: these
# lines, compressed). diff's < and > lines are the whole difference.
embedded() { "$tree/scripts/extract-ikconfig" "$1" 2>/dev/null || echo "(no embedded config in $1)"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
embedded "$prefix-baseline/vmlinux" > "$tmp/unpatched"
embedded "$prefix-off/vmlinux" > "$tmp/off"
d=$(diff "$tmp/unpatched" "$tmp/off" | grep '^[<>]' || true)
blob() {	# the gzip blob's bytes, between its two labels
	# shellcheck disable=SC2046 # two addresses, or none
	set -- $(nm "$1" | awk '$3 == "kernel_config_data" { a = substr($1, 9) }
		$3 == "kernel_config_data_end" { b = substr($1, 9) } END { if (a != "" && b != "") print a, b }')
	if [ $# = 2 ]; then echo $((0x$2 - 0x$1)); else echo "?"; fi
}
menu=$(sed -n 's/^menu "\(.*\)"$/\1/p' "$tree/kernel/bpf/Kconfig.debug" 2>/dev/null)
check "the guests' embedded config: off is unpatched plus the option's menu ($(blob "$prefix-baseline/vmlinux") and $(blob "$prefix-off/vmlinux") bytes, gzip)" \
	"$(printf '> #\n> # %s\n> #\n> # CONFIG_BPF_LOW_LEVEL_TRACEPOINTS is not set\n> # end of %s\n> ' "$menu" "$menu")" "$d"

# Debian's production config of this tree's version (linux-config-6.12
# for 6.12, never another tree's), through the patched tree's Kconfig.
series=$(sed -n 's/^VERSION = //p' "$tree/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$tree/Makefile")
debian=/usr/src/linux-config-$series/config.amd64_none_amd64.xz
[ -f "$debian" ] || debian=
dconf() {	# dconf EXTRA-LINES: olddefconfig of Debian's config plus those lines
	mkdir -p "$prefix-debian"
	{ xzcat "$debian"; printf '%s\n' "$@"; } > "$prefix-debian/.config"
	make -s -C "$tree" O="$(cd "$prefix-debian" && pwd)" ARCH=x86_64 olddefconfig >/dev/null 2>&1
	grep -E '^(# )?CONFIG_BPF_LOW_LEVEL_TRACEPOINTS[= ]' "$prefix-debian/.config" || echo "(not offered)"
}
if [ -z "$debian" ]; then
	result FAIL "Debian's config leaves the option off" "no /usr/src/linux-config-$series/config.amd64_none_amd64.xz"
	result FAIL "without DEBUG_KERNEL the option is not offered"
else
	check "Debian's config ($(basename "$debian")) leaves the option off" \
		"# CONFIG_BPF_LOW_LEVEL_TRACEPOINTS is not set" "$(dconf)"
	# EXPERT selects DEBUG_KERNEL: both off
	check "without DEBUG_KERNEL the option is not offered, even when asked for" \
		"(not offered)" "$(dconf '# CONFIG_EXPERT is not set' '# CONFIG_DEBUG_KERNEL is not set' \
			CONFIG_BPF_LOW_LEVEL_TRACEPOINTS=y)"
fi
ktap_status
