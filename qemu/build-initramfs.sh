#!/bin/bash
# Builds the guest's initramfs: busybox, trace-cmd, perf and timeout with
# the shared libraries they need, the installed kselftest directory (at
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
for tool in /usr/bin/trace-cmd /usr/bin/perf /usr/bin/timeout; do
	cp "$tool" "$root/usr/bin/"
	for lib in $(ldd "$tool" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
echo "root:x:0:0:root:/:/bin/sh" > "$root/etc/passwd"

(cd "$root" && find . | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "build-initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
