#!/bin/bash
# Builds the guest's initramfs: busybox; trace-cmd, perf, the real BPF
# clients (bpftool, bpftrace, strace), trinity and timeout, with the shared
# libraries they need; the installed kselftest directory (at
# /kselftest) and the init script.
# Usage: build-initramfs.sh OUT.cpio KSELFTEST-INSTALL-DIR
set -euo pipefail

out=${1:?usage: build-initramfs.sh OUT.cpio KSELFTEST-INSTALL-DIR}
ksft=${2:?}
[ -x "$ksft/run_kselftest.sh" ] || { echo "build-initramfs: no $ksft/run_kselftest.sh" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
root=$out.d
rm -rf "$root"
mkdir -p "$root/bin" "$root/usr/bin" "$root/proc" \
	"$root/sys" "$root/dev" "$root/tmp" "$root/etc"

cp /bin/busybox "$root/bin/busybox"
cp "$here/init" "$root/init"
chmod 755 "$root/init"
cp -r "$ksft" "$root/kselftest"

# Dynamically linked tools: copy each with every library ldd names.
# coreutils' timeout is the one run_kselftest.sh uses for "settings".
# bpftrace brings LLVM and clang's libraries: most of the image's size.
mkdir -p "$root/usr/sbin"
for tool in /usr/bin/trace-cmd /usr/bin/perf /usr/bin/timeout \
	    /usr/sbin/bpftool /usr/bin/bpftrace /usr/bin/strace /usr/bin/trinity; do
	[ -x "$tool" ] || { echo "build-initramfs: $tool is missing (scripts/deps.sh installs it)" >&2; exit 1; }
	cp "$tool" "$root$(dirname "$tool")/"
	for lib in $(ldd "$tool" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
# bpftrace compiles its programs with the kernel's uapi headers
# (linux-libc-dev's, as on the hosts it runs on)
mkdir -p "$root/usr/include/x86_64-linux-gnu"
cp -r /usr/include/linux /usr/include/asm-generic "$root/usr/include/"
cp -r /usr/include/x86_64-linux-gnu/asm "$root/usr/include/x86_64-linux-gnu/"
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"

# the same files give the same bytes (qemu/boot.sh keeps a guest's
# results by them): one mtime, one order, no inode numbers
find "$root" -exec touch -h -d @0 {} +
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet --reproducible) > "$out.tmp"
mv "$out.tmp" "$out"
echo "build-initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
