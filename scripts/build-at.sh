# Builds the tree as it was at an older commit, for the host checks;
# sourced (after ktap.sh), not run.

# tree_at TREE COMMIT: checks TREE out at COMMIT. When the script exits the
# tree is put back where it was first found (its branch, or its commit).
tree_at() {
	if [ -z "${tree_home:-}" ]; then
		tree_home=$(git -C "$1" symbolic-ref -q --short HEAD || git -C "$1" rev-parse HEAD)
		tree_home_dir=$1
		trap 'git -C "$tree_home_dir" checkout -q "$tree_home"' EXIT
	fi
	git -C "$1" checkout -q "$2"
}

# build_result NAME TREE BUILDDIR CONFIG: builds TREE as it is with
# defconfigs/base, defconfigs/X.Y when the tree is Linux X.Y and there is
# one (as the Makefile does), and defconfigs/CONFIG into BUILDDIR, as one
# KTAP result
build_result() {
	defconfigs=$(cd "$(dirname "$0")/../defconfigs" && pwd)
	xy=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { print v "." $3; exit }' "$2/Makefile")
	set -- "$1" "$2" "$3" "$defconfigs/base" "$defconfigs/$4"
	[ ! -f "$defconfigs/$xy" ] || set -- "$1" "$2" "$3" "$4" "$defconfigs/$xy" "$5"
	if log=$("$(dirname "$0")/build-kernel.sh" "$2" "$3" "$4" "$5" ${6:+"$6"} 2>&1); then
		result OK "$1"
	else
		result FAIL "$1" "$(echo "$log" | tail -20)"
	fi
}
