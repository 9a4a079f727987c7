#!/bin/bash
# kernel.sh - helpers behind patches/Makefile.
#
#   kernel.sh checkpatch        fresh tree, apply the series, checkpatch every patch
#   kernel.sh bisect            fresh tree of its own, apply patch by patch, build after each
#   kernel.sh build             tree with the whole series (reused if current), build
#   kernel.sh tree              only the tree with the whole series (reused if current);
#                               for builds of other architectures (vm/vm-test-s390.sh)
#
# Environment: BUILD (scratch dir), TARBALL, SERIES_DIR, CONFIG_DIR, JOBS,
# EXTRA_CONFIG (config fragments applied last).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$here/build}
TARBALL=${TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SERIES_DIR=${SERIES_DIR:-$here/linux-6.12}
CONFIG_DIR=${CONFIG_DIR:-$here/vm}
JOBS=${JOBS:-$(($(nproc) + 1))}
SRC=$BUILD/linux-6.12
STAMP=$SRC/.lazytrace-series
FILES=.lazytrace-files

now() { date +%s; }
elapsed() { local s=$(($(now) - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
log() { echo "[kernel] $*"; }

patches() { grep -v '^\s*#' "$SERIES_DIR/series" | grep -v '^\s*$'; }
series_sum() { (cd "$SERIES_DIR" && cat series $(patches)) | sha1sum | cut -d' ' -f1; }

ensure_tarball() {
	[ -f "$TARBALL" ] && return
	log "$TARBALL missing: installing linux-source-6.12"
	if [ "$(id -u)" = 0 ]; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.12
	else
		sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-source-6.12
	fi
	[ -f "$TARBALL" ] || { echo "no $TARBALL after installing linux-source-6.12" >&2; exit 1; }
}

fresh_tree() { # [DIR]: a pristine tree in DIR (default $SRC)
	local t dir=${1:-$SRC}
	t=$(now)
	ensure_tarball
	mkdir -p "$BUILD"
	rm -rf "$dir" "$BUILD/linux-source-6.12"
	tar -C "$BUILD" -xf "$TARBALL"
	mv "$BUILD/linux-source-6.12" "$dir"
	log "extracted pristine $(basename "$TARBALL") ($(make -s -C "$dir" kernelversion)) in $(elapsed "$t")"
}

apply_one() { # PATCH [DIR]
	local log dir=${2:-$SRC}
	# The ceiling keeps git from treating the tree as part of an enclosing
	# repository (it would then skip every path outside the cwd).
	if ! log=$(cd "$dir" && GIT_CEILING_DIRECTORIES=$(dirname "$dir") \
		git apply -v --whitespace=error-all "$SERIES_DIR/$1" 2>&1) ||
	   echo "$log" | grep -q '^Skipped'; then
		echo "$log" >&2
		echo "FAIL: $1 does not apply" >&2
		exit 1
	fi
}

# The files the series touches (old and new names), one a line.
series_files() {
	(cd "$SERIES_DIR" && sed -n 's|^--- a/||p; s|^+++ b/||p' $(patches)) | sort -u
}

# patched_tree: the series applied, patch by patch, to a pristine tree,
# then made $SRC. A $SRC of an earlier series is updated in place, file
# by file, where the content differs, so that the files the two series
# leave alike keep their times and a kernel built from $SRC is rebuilt
# only where the change reaches (a patch to tools/ rebuilds nothing).
patched_tree() {
	local new=$BUILD/linux-6.12.new f n=0
	fresh_tree "$new"
	for p in $(patches); do
		apply_one "$p" "$new"
	done
	series_files > "$new/$FILES"
	if [ -f "$SRC/$FILES" ] && [ -f "$STAMP" ]; then
		sort -u "$SRC/$FILES" "$new/$FILES" | while read -r f; do
			if [ -f "$new/$f" ]; then
				cmp -s "$new/$f" "$SRC/$f" && continue
				mkdir -p "$(dirname "$SRC/$f")"
				cp "$new/$f" "$SRC/$f"
				echo "$f"
			elif [ -e "$SRC/$f" ]; then
				rm -f "$SRC/$f"
				echo "$f"
			fi
		done > "$BUILD/tree-update.log"
		n=$(wc -l < "$BUILD/tree-update.log")
		cp "$new/$FILES" "$SRC/$FILES"
		rm -rf "$new"
		log "updated $SRC in place: $n file(s) differ from the last series ($BUILD/tree-update.log)"
	else
		rm -rf "$SRC"
		mv "$new" "$SRC"
	fi
	series_sum > "$STAMP"
}

checkpatch_one() {
	local out
	out=$(cd "$SRC" && perl scripts/checkpatch.pl --no-summary --show-types "$SERIES_DIR/$1" 2>&1 || true)
	local total
	total=$(cd "$SRC" && perl scripts/checkpatch.pl "$SERIES_DIR/$1" 2>&1 | grep '^total:' || true)
	echo "  $1: ${total:-checkpatch gave no summary}"
	if ! echo "$total" | grep -q '^total: 0 errors, 0 warnings'; then
		echo "$out"
		return 1
	fi
}

cmd_checkpatch() {
	local t rc=0
	t=$(now)
	patched_tree
	log "series applied ($(patches | wc -l) patches); checkpatch:"
	for p in $(patches); do
		checkpatch_one "$p" || rc=1
	done
	log "checkpatch $([ $rc = 0 ] && echo PASS || echo FAIL) in $(elapsed "$t")"
	return $rc
}

# configure O=$1: tinyconfig + kernel.config (+ lazy.config once the tree has PREEMPT_LAZY)
configure() {
	local out=$1 frags=("$CONFIG_DIR/kernel.config")
	# NO_LAZY=1: the patched tree without PREEMPT_LAZY (vm-test-nolazy)
	grep -q '^config PREEMPT_LAZY' "$SRC/kernel/Kconfig.preempt" && [ "${NO_LAZY:-0}" != 1 ] &&
		frags+=("$CONFIG_DIR/lazy.config")
	# EXTRA_CONFIG: more fragments, last (vm-test VM_DEBUG=1: debug.config)
	[ -n "${EXTRA_CONFIG:-}" ] && frags+=($EXTRA_CONFIG)
	mkdir -p "$out"
	make -s -C "$SRC" O="$out" tinyconfig > /dev/null
	(cd "$SRC" && scripts/kconfig/merge_config.sh -m -O "$out" "$out/.config" "${frags[@]}") > /dev/null
	make -s -C "$SRC" O="$out" olddefconfig > /dev/null
	# every option the fragments ask for, the last fragment winning
	cat "${frags[@]}" | sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/\1 y/p; s/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1 n/p' |
		awk '{ v[$1] = $2 } END { for (o in v) if (v[o] == "y") print o }' | while read -r opt; do
		grep -qx "$opt=y" "$out/.config" || echo "  warning: $opt=y did not stick"
	done
}

build() {
	local out=$1 rc targets=bzImage
	# modules too where the config has them: Module.symvers, for the
	# VM test's out-of-tree lazyhog module
	grep -q '^CONFIG_MODULES=y' "$out/.config" && targets="bzImage modules"
	make -s -C "$SRC" O="$out" -j"$JOBS" $targets KCFLAGS=-Werror > "$out/build.log" 2>&1
	rc=$?
	grep -v '^$' "$out/build.log" | tail -n 40
	[ $rc = 0 ] && [ -f "$out/arch/x86/boot/bzImage" ]
}

cmd_bisect() {
	local t0 t out=$BUILD/out-bisect i=0 rc=0
	# a tree of its own: the series' tree and the kernel built from it
	# stay as they are
	SRC=$BUILD/linux-6.12-bisect
	STAMP=$SRC/.lazytrace-series
	t0=$(now)
	fresh_tree
	rm -rf "$out"
	for p in $(patches); do
		i=$((i + 1))
		t=$(now)
		apply_one "$p"
		configure "$out"
		rm -f "$out/arch/x86/boot/bzImage"
		if build "$out"; then
			log "patch $i $p: build OK in $(elapsed "$t") ($(grep -o 'CONFIG_PREEMPT[A-Z_]*=y' "$out/.config" | tr '\n' ' '))"
		else
			log "patch $i $p: BUILD FAILED after $(elapsed "$t")"
			rc=1
			break
		fi
	done
	[ $rc = 0 ] && series_sum > "$STAMP"
	log "bisect builds $([ $rc = 0 ] && echo PASS || echo FAIL) in $(elapsed "$t0")"
	return $rc
}

cmd_tree() {
	if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$(series_sum)" ]; then
		log "reusing $SRC (series unchanged)"
	else
		patched_tree
		log "series applied"
	fi
}

cmd_build() {
	local t out=${1:-$BUILD/out-vm}
	cmd_tree
	t=$(now)
	configure "$out"
	build "$out" || { log "kernel build FAILED"; exit 1; }
	log "kernel built in $(elapsed "$t"): $out/arch/x86/boot/bzImage"
}

case ${1:-} in
checkpatch) cmd_checkpatch ;;
bisect) cmd_bisect ;;
build) shift; cmd_build "$@" ;;
tree) cmd_tree ;;
*) echo "usage: $0 checkpatch|bisect|build [OUT]|tree" >&2; exit 2 ;;
esac
