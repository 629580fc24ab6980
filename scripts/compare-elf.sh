#!/bin/bash
# Compares two ELF files (two vmlinux, or two builds of one object) byte
# for byte, section by section, and names by symbol every byte that
# differs. Prints one line per section that differs:
#   SECTION: N bytes differ in SYMBOL[+OFFSET] SYMBOL...
#   SECTION: only in A | only in B | size A != size B
#   SECTION relocations: N differ at SYMBOL...
# and nothing when the sections given are equal. Exits 1 when any differs.
# SECTIONS: a grep -E pattern of the section names to compare (anchored),
# by default every allocated section: those that hold bytes byte for
# byte, those that hold none (.bss and its kind) by size. RELOCS=1
# compares each one's relocations too (objects: offset, type, symbol and
# addend, as readelf prints them). SYMBOLS=1 (objects) also compares
# every other section: that each is in both, of one type, and the bytes
# of those that are neither symbols, relocations nor debugging
# information (which holds line numbers); and the symbol table: each
# symbol's name, section, value, size, type, binding and visibility,
# with every number after a "_" or "." in a name read as one (GCC's
# static locals and clones, .N; __COUNTER__ and __LINE__ in
# __UNIQUE_ID_, __BTF_ID__ and initcall names: they move with no change
# to the code):
#   symbols: N differ: NAME...
# BUG_CONFIG=.config: where it says DEBUG_BUGVERBOSE=y (struct bug_entry
# then 12 bytes: two displacements, the line), __bug_table
# may differ in its entries' line fields alone (a WARN_ON() keeps its code
# and place, but a patch that adds lines above it changes its __LINE__);
# it is then reported as "__bug_table: line numbers only (N bytes)" and
# does not count as a difference.
# Usage: compare-elf.sh A B [SECTIONS]
set -Eeuo pipefail

a=${1:?usage: compare-elf.sh A B [SECTIONS]}
b=${2:?}
pattern=${3:-}
: "${RELOCS:=0}" "${SYMBOLS:=0}" "${MAX_NAMES:=12}"
for f in "$a" "$b"; do
	[ -f "$f" ] || { echo "compare-elf: $f is missing" >&2; exit 2; }
done
tmp=$(mktemp -d)
# 1 is "they differ": any other failure is 2
trap 'echo "compare-elf: failed at line $LINENO" >&2; exit 2' ERR
trap 'rm -rf "$tmp"' EXIT

# sections NAME: name, type, flags (A: allocated) and size of each
# section, one per line
sections() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' |
		awk '$1 != "NULL" { print $1, $2, (NF == 10 && $7 ~ /A/) ? "A" : "-", $5 }'
}
sections "$a" > "$tmp/a.sec"
sections "$b" > "$tmp/b.sec"
# what is compared: the pattern's sections, else the allocated ones (and
# with SYMBOLS=1 every one)
select_sections() {
	if [ -n "$pattern" ]; then
		awk '{ print $1 }' "$1" | grep -Ex "$pattern" || true
	elif [ "$SYMBOLS" = 1 ]; then
		awk '{ print $1 }' "$1"
	else
		awk '$3 == "A" { print $1 }' "$1"
	fi
}
# unallocated sections whose bytes are not compared as bytes: the symbol
# table (compared by symbol), its strings, relocations (RELOCS) and
# debugging information, whose line numbers move with any line added
not_bytes='^(\.symtab|\.strtab|\.shstrtab|\.symtab_shndx|\.rela?[._].*|\.debug_.*|\.BTF.*|\.gnu_debuglink)$'
# debugging information: its relocations move with its line numbers too
debug_info='^(\.debug_.*|\.BTF.*)$'
# symtab FILE: one line per symbol, its section by name, numbers read as one
symtab() {
	readelf -SW "$1" | sed -n 's/^ *\[ *\([0-9]*\)\] \([^ ]*\).*/\1 \2/p' > "$tmp/secidx"
	readelf -sW "$1" | awk -v idx="$tmp/secidx" '
		BEGIN { while ((getline l < idx) > 0) { split(l, f, " "); sec[f[1]] = f[2] } }
		$1 ~ /^[0-9]+:$/ && $1 != "0:" {
			# every number after a "_" or "." in a name: GCC'"'"'s
			# .N, __COUNTER__ and __LINE__ (__UNIQUE_ID_, __BTF_ID__,
			# __initcall__kmod_)
			name = $8
			while (match(name, /[_.][0-9]+/))
				name = substr(name, 1, RSTART) "N" substr(name, RSTART + RLENGTH)
			# (__UNIQUE_ID_ puts its __COUNTER__ right after the name)
			if (name ~ /^__UNIQUE_ID_/)
				sub(/[0-9]+$/, "N", name)
			s = ($7 in sec) ? sec[$7] : $7
			print name, s, $2, $3, $4, $5, $6
		}' | sort
}
# listed NAMES: the first MAX_NAMES of NAMES (one a line) on one line,
# and " ..." when there are more
listed() {
	echo "$(echo "$1" | head -"$MAX_NAMES" | tr '\n' ' ' | sed 's/ $//')$(
		[ "$(echo "$1" | wc -l)" -le "$MAX_NAMES" ] || echo " ...")"
}
sort -u <(select_sections "$tmp/a.sec") <(select_sections "$tmp/b.sec") > "$tmp/names"

# mawk has no strtonum: hex to a number, by the low 32 bits (a kernel's
# sections lie within one 4 GiB span; a double holds no 64-bit address)
HEX='function hex(h,  i, n) { h = tolower(substr(h, length(h) > 8 ? length(h) - 7 : 1)); n = 0
	for (i = 1; i <= length(h); i++) n = n * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
	return n }'
# symbols FILE SECTION: "start size name" of the symbols in SECTION, by start
symbols() {
	objdump -t "$1" | awk -v s="$2" "$HEX"'
		$0 ~ /^[0-9a-f]+ / {
			# value, flags (7 columns), section, size, name
			sec = substr($0, 26); split(sec, f, /[ \t]+/)
			if (f[1] != s || f[3] == "" || f[3] ~ /^\./) next
			printf "%.0f %.0f %s\n", hex($1), hex(f[2]), f[3]
		}' | sort -n -k1,1 -k2,2nr
}
# name_offsets FILE SECTION VMA < OFFSETS: the symbol of each offset (the
# one that covers it, else the one before), once each, in order
name_offsets() {
	symbols "$1" "$2" > "$tmp/syms"
	awk -v vma="$3" -v syms="$tmp/syms" '
		BEGIN { while ((getline l < syms) > 0) { split(l, f, " "); s[++n] = f[1]; z[n] = f[2]; nm[n] = f[3] } }
		{
			addr = vma + $1; lo = 1; hi = n; at = 0
			while (lo <= hi) {	# the last symbol that starts at or before addr
				mid = int((lo + hi) / 2)
				if (s[mid] <= addr) { at = mid; lo = mid + 1 } else hi = mid - 1
			}
			if (!at) name = "(before any symbol)"
			else if (addr < s[at] + z[at] || !z[at]) name = nm[at]
			else name = "(after " nm[at] ")"
			if (!(name in seen)) { seen[name] = 1; print name }
		}'
}
vma() {
	# (read to the end: an early exit would kill readelf with SIGPIPE)
	readelf -SW "$1" | awk -v s="$2" "$HEX"'{ sub(/^ *\[ *[0-9]*\] /, "") } $1 == s && !done { printf "%.0f\n", hex($3); done = 1 }'
}
# relocs FILE SECTION: the relocations of SECTION, one per line
relocs() {
	readelf -rW "$1" | awk -v s=".rela$2" '
		/^Relocation section / { on = ($3 == "'"'"'" s "'"'"'"); next }
		on && NF >= 3 && $1 ~ /^[0-9a-f]+$/ { $2 = ""; print }'
}

differ=0
while read -r sec; do
	ina=$(awk -v s="$sec" '$1 == s' "$tmp/a.sec")
	inb=$(awk -v s="$sec" '$1 == s' "$tmp/b.sec")
	if [ -z "$ina" ] || [ -z "$inb" ]; then
		[ -n "$ina" ] && echo "$sec: only in $a" || echo "$sec: only in $b"
		differ=1
		continue
	fi
	ta=$(awk '{ print $2 }' <<< "$ina") tb=$(awk '{ print $2 }' <<< "$inb")
	alloc=$(awk '{ print $3; exit }' <<< "$ina")
	if [ "$ta" != "$tb" ]; then
		echo "$sec: $ta against $tb (a type that differs)"
		differ=1
		continue
	fi
	if [ "$ta" = NOBITS ]; then
		sa=$(awk '{ print $4 }' <<< "$ina") sb=$(awk '{ print $4 }' <<< "$inb")
		if [ "$sa" != "$sb" ]; then
			echo "$sec: 0x$sa bytes against 0x$sb (a size that differs, no bytes held)"
			differ=1
		fi
	elif [ "$alloc" != A ] && { [[ $sec =~ $not_bytes ]] || [ "$ta" = RELA ]; }; then
		:	# (compared otherwise, or not as bytes; a RELA section
			# by its type too: .rela + a name with no dot)
	else
		if [ "$alloc" = A ]; then
			objcopy -O binary --only-section="$sec" "$a" "$tmp/a.bin"
			objcopy -O binary --only-section="$sec" "$b" "$tmp/b.bin"
		else	# (-O binary writes what is loaded alone)
			objcopy --dump-section "$sec=$tmp/a.bin" "$a" "$tmp/junk"
			objcopy --dump-section "$sec=$tmp/b.bin" "$b" "$tmp/junk"
		fi
		sa=$(stat -c %s "$tmp/a.bin") sb=$(stat -c %s "$tmp/b.bin")
		if [ "$sa" != "$sb" ]; then
			echo "$sec: $sa bytes against $sb (a size that differs)"
			differ=1
		elif ! cmp -s "$tmp/a.bin" "$tmp/b.bin"; then
			cmp -l "$tmp/a.bin" "$tmp/b.bin" | awk '{ print $1 - 1 }' > "$tmp/off" || true
			# the line field: after two 4-byte displacements
			if [ "$sec" = __bug_table ] && [ -n "${BUG_CONFIG:-}" ] &&
			   grep -q '^CONFIG_DEBUG_BUGVERBOSE=y' "$BUG_CONFIG" &&
			   awk '{ o = $1 % 12 } o != 8 && o != 9 { exit 1 }' "$tmp/off"; then
				echo "$sec: line numbers only ($(wc -l < "$tmp/off") bytes of the entries' line fields)"
			else
				names=$(name_offsets "$b" "$sec" "$(vma "$b" "$sec")" < "$tmp/off")
				echo "$sec: $(wc -l < "$tmp/off") bytes differ in $(listed "$names")"
				differ=1
			fi
		fi
	fi
	if [ "$RELOCS" = 1 ] && ! [[ $sec =~ $debug_info ]]; then
		relocs "$a" "$sec" > "$tmp/a.rel"
		relocs "$b" "$sec" > "$tmp/b.rel"
		if ! cmp -s "$tmp/a.rel" "$tmp/b.rel"; then
			diff "$tmp/a.rel" "$tmp/b.rel" > "$tmp/rel.diff" || true
			n=$(grep -c '^[<>]' "$tmp/rel.diff" || true)
			at=$(sed -n 's/^> \([0-9a-f]*\) .*/\1/p' "$tmp/rel.diff" |
				awk "$HEX"'{ printf "%.0f\n", hex($1) }' | name_offsets "$b" "$sec" 0 | awk -v n="$MAX_NAMES" 'NR <= n' | tr '\n' ' ')
			echo "$sec relocations: $n lines differ, at ${at:-(removed ones only)}"
			differ=1
		fi
	fi
done < "$tmp/names"
if [ "$SYMBOLS" = 1 ] && [ -z "$pattern" ]; then
	symtab "$a" > "$tmp/a.sym"
	symtab "$b" > "$tmp/b.sym"
	if ! cmp -s "$tmp/a.sym" "$tmp/b.sym"; then
		diff "$tmp/a.sym" "$tmp/b.sym" > "$tmp/sym.diff" || true
		names=$(sed -n 's/^[<>] \([^ ]*\) .*/\1/p' "$tmp/sym.diff" | awk '!seen[$0]++')
		echo "symbols: $(grep -c '^[<>]' "$tmp/sym.diff") differ: $(listed "$names")"
		differ=1
	fi
fi
exit "$differ"
