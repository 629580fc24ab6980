#!/bin/sh
# Fails naming every option a fragment asks for that the final .config
# does not have, as kunit.py does after olddefconfig.
# Usage: check-config.sh DOTCONFIG FRAGMENT...
set -eu

config=${1:?usage: check-config.sh DOTCONFIG FRAGMENT...}
shift
bad=0
for fragment in "$@"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$config" && continue
			got=$(grep -E "^(# )?${line%%=*}[= ]" "$config" || echo "absent (dependencies unmet)")
			;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			# unset or absent both mean off
			grep -q "^$opt=" "$config" || continue
			got=$(grep "^$opt=" "$config")
			;;
		*) continue ;;
		esac
		echo "check-config: $fragment asks for '$line', .config has: $got" >&2
		bad=1
	done < "$fragment"
done
[ "$bad" = 0 ] || { echo "check-config: $config does not match its fragments" >&2; exit 1; }
