#!/bin/bash
# Builds the guest's initramfs: busybox, trace-cmd with the shared libraries
# it needs, our test binaries and the init script.
# Usage: build-initramfs.sh OUT.cpio TESTBIN...
set -euo pipefail

out=${1:?usage: build-initramfs.sh OUT.cpio TESTBIN...}
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$out.d
rm -rf "$root"
mkdir -p "$root/bin" "$root/usr/bin" "$root/selftests" "$root/proc" \
	"$root/sys" "$root/dev" "$root/tmp" "$root/etc"

cp /bin/busybox "$root/bin/busybox"
cp "$here/init" "$root/init"
chmod 755 "$root/init"
for t in "$@"; do
	cp "$t" "$root/selftests/"
done

# Dynamically linked tools: copy each with every library ldd names.
for tool in /usr/bin/trace-cmd /usr/bin/perf; do
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
