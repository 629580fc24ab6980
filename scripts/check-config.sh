#!/bin/sh
# Fails naming every option a fragment asks for that the final .config
# does not have, as kunit.py does after olddefconfig. Later fragments
# override earlier ones, as merge_config.sh does: the last line naming an
# option is what is asked for.
# Usage: check-config.sh DOTCONFIG FRAGMENT...
set -eu

config=${1:?usage: check-config.sh DOTCONFIG FRAGMENT...}
shift
asked=$(mktemp)
trap 'rm -f "$asked"' EXIT
# "FRAGMENT<tab>LINE", one per option, the last fragment's line
for fragment in "$@"; do
	sed -n -e 's/^CONFIG_[A-Za-z0-9_]*=.*$/&/p' -e 's/^# CONFIG_[A-Za-z0-9_]* is not set$/&/p' \
		"$fragment" | sed "s|^|$fragment	|"
done | awk -F'\t' '{
		opt = $2; sub(/^# /, "", opt); sub(/[= ].*/, "", opt)
		if (!(opt in line)) order[++n] = opt
		line[opt] = $2; from[opt] = $1
	}
	END { for (i = 1; i <= n; i++) print from[order[i]] "\t" line[order[i]] }' > "$asked"

bad=0
while IFS='	' read -r fragment line; do
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
done < "$asked"
[ "$bad" = 0 ] || { echo "check-config: $config does not match its fragments" >&2; exit 1; }
