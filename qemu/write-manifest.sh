#!/bin/sh
# Writes the manifest qemu/results.sh checks runs against (MANIFEST=):
# every test each guest run reported, as "RUN ok|skip TEST", from the
# runs' logs. Refuses when a run failed: a manifest records what passes.
# Review the diff before committing it: a test that went missing from the
# runs goes missing from the manifest too.
# Usage: write-manifest.sh NAME=FILE... > qemu/manifest
set -eu

here=$(dirname "$0")
verdict=$(MANIFEST='' "$here/results.sh" "$@" || true)
failed=$(echo "$verdict" | grep ': not ok ' | grep -v ': not ok unexpected skip of ' || true)
if [ -n "$failed" ]; then
	echo "write-manifest: runs that failed make no manifest:" >&2
	echo "$failed" | sed 's/^/  /' >&2
	exit 1
fi
echo "# The tests each guest run must report, and how (written by"
echo "# qemu/write-manifest.sh: make manifest). qemu/results.sh fails a run"
echo "# that reports a test not listed, leaves one out, or skips one listed"
echo "# as ok (and the other way round). Skips, and why:"
echo "# 6.1 has no BPF_F_PATH_FD (Linux 6.5): obj_pin_get_map_path_fd."
echo "# Only 6.12's debug kernel has BTF (defconfigs/btf): the typed clients and"
echo "# fentry skip on the others. Debian 12's bpftrace 0.17 has no rawtracepoint."
echo "$verdict" | awk '
	$2 == "ok" { run = $1; sub(/:$/, "", run); print run, "ok", $3 }
	$2 == "skip" { run = $1; sub(/:$/, "", run); print run, "skip", $3 }
	$2 == "not" && $3 == "ok" && $4 == "unexpected" { run = $1; sub(/:$/, "", run); print run, "skip", $7 }' |
	sort -u
