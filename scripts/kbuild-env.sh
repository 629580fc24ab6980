# Sourced by the scripts that build the rig's kernels (with $tree, an
# absolute path, and $build set; the walk sources it for code_of() and
# config_of()): what makes two builds of one source byte-comparable and
# lets ccache share objects between trees, configs and build dirs.
# shellcheck shell=bash

export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026"
export KBUILD_BUILD_USER=rig KBUILD_BUILD_HOST=rig
# the banner's "#N" (init_uts_ns, linux_banner) counts the builds of a
# dir: every build is #1, so that the walk's unpatched and off kernels,
# built in one dir, compare byte for byte (scripts/zero-cost-check.sh)
export KBUILD_BUILD_VERSION=1
# paths relative to BASEDIR: out/linux-6.12's objects hit from a copy
export CCACHE_BASEDIR="$(dirname "$tree")" CCACHE_NOHASHDIR=1
# Not ccache's depend mode (CCACHE_DEPEND), faster on a miss (175 s
# against 220 s on 360 objects): it keys an object by the -MMD list,
# which has no .incbin, so arch/x86/boot/compressed/piggy.o came back
# from the cache with an older kernel inside whenever the compressed
# sizes matched (a mutant's bzImage booted the previous series' code).
# Without it ccache sees the .incbin and does not cache piggy.o.
unset CCACHE_DEPEND

# Niced: make test boots guests beside builds, and a guest under TCG that
# a build starves runs past the waits its tests bound.
kmake() { nice -n 10 make -s -C "$tree" O="$build" ARCH=x86_64 CC="ccache gcc" "$@"; }

# A script's code without its comments, as the build keys hash it
# (build-kernel.sh, walk-series.sh): a reworded comment rebuilds nothing.
code_of() { sed '/^[[:space:]]*#/d' "$@"; }
# A config fragment's lines, as the build keys hash it: its comments go,
# but "# CONFIG_X is not set" is a line of config.
config_of() { sed -e '/^# CONFIG_[A-Za-z0-9_]* is not set$/b' -e '/^[[:space:]]*#/d' "$@"; }
