#!/bin/bash
# vm-test.sh - build the patched kernel and an initramfs, boot it under
# qemu (TCG, 2 CPUs), record the hog and messaging scenarios, check them.
# Environment: BUILD, LAZYTRACE (path of the lazytrace binary), QEMU_TIMEOUT,
# QEMU_ICOUNT (default '-icount shift=3,sleep=off'; 'none' for MTTCG),
# KERNEL (a prebuilt bzImage: skip building the kernel).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build}
LAZYTRACE=${LAZYTRACE:-$top/../lazytrace}
QEMU_TIMEOUT=${QEMU_TIMEOUT:-1200}
out=$BUILD/out-vm
vmout=$BUILD/vm-out
# VM_DEBUG=1: the debug build (vm/debug.config: lockdep, DEBUG_PREEMPT,
# DEBUG_ATOMIC_SLEEP, soft-lockup detector, RCU stall warnings) in its own
# build and output directories
if [ "${VM_DEBUG:-0}" = 1 ]; then
	out=$BUILD/out-vm-debug
	vmout=$BUILD/vm-out-debug
	export EXTRA_CONFIG="${EXTRA_CONFIG:-} $here/debug.config"
fi
# VM_NOLAZY=1: the series built without PREEMPT_LAZY (kernel.config
# alone: PREEMPT, PREEMPT_DYNAMIC); it must behave as the pristine kernel
check_mode=
[ "${VM_DEBUG:-0}" = 1 ] && check_mode=debug
if [ "${VM_NOLAZY:-0}" = 1 ]; then
	out=$BUILD/out-vm-nolazy
	vmout=$BUILD/vm-out-nolazy
	export NO_LAZY=1
	export GUEST_ENV="${GUEST_ENV:-} lt_nolazy=1"
	check_mode=nolazy
fi
# VM_RT=1: PREEMPT_RT with the lazy model (vm/rt.config)
if [ "${VM_RT:-0}" = 1 ]; then
	out=$BUILD/out-vm-rt
	vmout=$BUILD/vm-out-rt
	export EXTRA_CONFIG="${EXTRA_CONFIG:-} $here/rt.config"
	check_mode=rt
fi
# VM_NODYN=1: PREEMPT_LAZY without PREEMPT_DYNAMIC (vm/nodyn.config): the
# lazy scenarios only, no second boot (no preempt= without it)
if [ "${VM_NODYN:-0}" = 1 ]; then
	out=$BUILD/out-vm-nodyn
	vmout=$BUILD/vm-out-nodyn
	export EXTRA_CONFIG="${EXTRA_CONFIG:-} $here/nodyn.config"
	export GUEST_ENV="${GUEST_ENV:-} lt_nodyn=1"
	check_mode=nodyn
fi
# VM_DEBIAN=1: Debian's own choices (vm/debian.config), built voluntary
# as Debian builds it, without lazy.config; the first boot asks for
# preempt=lazy on the command line, as a Debian user would
boot_args=
if [ "${VM_DEBIAN:-0}" = 1 ]; then
	out=$BUILD/out-vm-debian
	vmout=$BUILD/vm-out-debian
	export NO_LAZY=1
	export EXTRA_CONFIG="${EXTRA_CONFIG:-} $here/debian.config"
	boot_args=preempt=lazy
fi
export BUILD

declare -a stages
now() { date +%s; }
stage() { # name start
	local s=$(($(now) - $2))
	stages+=("$(printf '  %-28s %3dm%02ds' "$1" $((s / 60)) $((s % 60)))")
}
report() {
	echo
	echo "vm-test stage timings:"
	printf '%s\n' "${stages[@]}"
}
trap report EXIT
t0=$(now)

for tool in qemu-system-x86_64 trace-cmd gcc cpio gzip; do
	command -v $tool > /dev/null || { echo "vm-test: $tool is missing" >&2; exit 1; }
done

t=$(now)
if [ -n "${KERNEL:-}" ]; then
	echo "[vm] using the prebuilt kernel KERNEL=$KERNEL"
	kernel=$KERNEL
else
	"$top/tools/kernel.sh" build "$out" || exit 1
	kernel=$out/arch/x86/boot/bzImage
fi
stage "kernel (extract+patch+build)" "$t"

if [ "${VM_DEBIAN:-0}" = 1 ]; then
	# the model Debian configures, lazy only from the command line
	grep -q '^CONFIG_PREEMPT_VOLUNTARY=y' "$out/.config" &&
		! grep -q '^CONFIG_PREEMPT_LAZY=y' "$out/.config" ||
		{ echo "vm-test: the Debian build is not PREEMPT_VOLUNTARY without PREEMPT_LAZY" >&2; exit 1; }
	echo "[vm] Debian's choices: PREEMPT_VOLUNTARY, PREEMPT_DYNAMIC, booted with preempt=lazy"
fi

# HZ of the kernel under test: every time threshold of check.sh derives
# from its tick
kconfig=${KERNEL_CONFIG:-$(dirname "$kernel")/../../../.config}
hz=$(sed -n 's/^CONFIG_HZ=//p' "$kconfig" 2>/dev/null)
[ -n "$hz" ] || { echo "vm-test: no CONFIG_HZ in $kconfig (set KERNEL_CONFIG)" >&2; exit 1; }
echo "[vm] kernel HZ=$hz (tick $((1000000 / hz)) us)"

t=$(now)
mkdir -p "$BUILD"
gcc -O2 -Wall -Wextra -static -o "$BUILD/lazyload" "$here/lazyload.c" || exit 1
gcc -O2 -Wall -Wextra -static -o "$BUILD/kvmlazy" "$here/kvmlazy.c" || exit 1
# the kernel hog is a test module, not part of the series
rm -rf "$BUILD/lazyhog"
cp -r "$here/lazyhog" "$BUILD/lazyhog"
ksrc=${KERNEL_SRC:-$BUILD/linux-6.12}
kout=$(cd "$(dirname "$kconfig")" && pwd)
make -s -C "$ksrc" O="$kout" M="$BUILD/lazyhog" KCFLAGS=-Werror modules > "$BUILD/lazyhog/build.log" 2>&1 ||
	{ cat "$BUILD/lazyhog/build.log" >&2; echo "vm-test: lazyhog module build failed" >&2; exit 1; }
# the series' kselftest (patch 9), built static with its own Makefile
# from the tree the kernel was built from; a tree without it (an older
# series) leaves it out and check.sh says so
rm -rf "$BUILD/kselftest" "$BUILD/preempt_lazy"
if [ -f "$ksrc/tools/testing/selftests/sched/preempt_lazy.c" ]; then
	mkdir -p "$BUILD/kselftest"
	make -s -C "$ksrc/tools/testing/selftests/sched" OUTPUT="$BUILD/kselftest" LDFLAGS=-static \
		"$BUILD/kselftest/preempt_lazy" > "$BUILD/kselftest.log" 2>&1 &&
		cp "$BUILD/kselftest/preempt_lazy" "$BUILD/preempt_lazy" ||
		{ cat "$BUILD/kselftest.log" >&2; echo "vm-test: kselftest build failed" >&2; exit 1; }
fi
# the lazytrace under test runs in the guest too (record's kernel-stack
# capture), unless LAZYTRACE=skip
ltguest=
[ "$LAZYTRACE" != skip ] && [ -x "$LAZYTRACE" ] && ltguest=$LAZYTRACE
"$here/mkinitramfs.sh" "$BUILD/initramfs.cpio.gz" "$BUILD/lazyload" "$BUILD/lazyhog/lazyhog.ko" \
	$ltguest ${ltguest:+"$kconfig"} || exit 1
stage "initramfs + lazyhog.ko + kselftest" "$t"

t=$(now)
rm -rf "$vmout"
mkdir -p "$vmout"
icount=${QEMU_ICOUNT:--icount shift=3,sleep=off}
[ "$icount" = none ] && icount=
echo "[vm] booting under qemu TCG ${icount:-(MTTCG)}, 2 CPUs (serial log: $vmout/console.log)"
# -icount: guest time follows the number of instructions executed, not the
# host clock, so a loaded host does not make ticks land in the middle of
# kernel code that would be short on real hardware (without it, the lazy
# run's preempted switches vary 10x with the host load). sleep=off lets
# idle time pass instantly.
# vm DIR EXTRA_CMDLINE: boot the guest once, guest.sh writes into DIR
vm() {
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -M pc -accel tcg $icount -cpu max \
		-smp 2 -m 1024 -net none -nographic -no-reboot \
		-kernel "$kernel" -initrd "$BUILD/initramfs.cpio.gz" \
		-append "console=ttyS0 panic=-1 loglevel=4 $2 ${GUEST_ENV:-}" \
		-virtfs local,path="$1",mount_tag=out,security_model=none,id=out \
		> "$1/console.log" 2>&1 < /dev/null
	rc=$?
	if [ $rc != 0 ] || ! grep -q 'guest.sh exit 0' "$1/console.log"; then
		echo "vm-test: the VM failed (qemu rc $rc); last console lines:" >&2
		tail -n 30 "$1/console.log" >&2
		exit 1
	fi
}
vm "$vmout" "$boot_args"
stage "boot + record (qemu)" "$t"
grep '^===' "$vmout/guest.log" | sed 's/^/[vm] /'

# the mode can also be chosen at boot
consoles=$vmout/console.log
if [ "${VM_NODYN:-0}" != 1 ]; then
	t=$(now)
	mkdir -p "$vmout/boot-full"
	vm "$vmout/boot-full" "preempt=full lt_boot_check=1"
	stage "boot with preempt=full" "$t"
	consoles="$consoles $vmout/boot-full/console.log"
fi

# Any kernel complaint on either boot fails the test (with the debug
# build these are lockdep, DEBUG_PREEMPT, might_sleep, soft lockup, RCU
# stall reports).
splat='BUG:|WARNING:|Oops|Kernel panic|lockdep|possible (recursive|circular|irq)|inconsistent lock state|suspicious RCU|soft lockup|rcu_preempt detected stall|rcu: INFO|self-detected stall|hung_task|blocked for more than|Call Trace'
t=$(now)
"$here/check.sh" "$vmout" "$LAZYTRACE" "$hz" $check_mode 2>&1 | tee "$vmout/check.log"
rc=${PIPESTATUS[0]}
if grep -Eq "$splat" $consoles; then
	echo "FAIL: the kernel complained on the console:" | tee -a "$vmout/check.log"
	grep -EnA3 "$splat" $consoles | head -40 | tee -a "$vmout/check.log"
	rc=1
else
	echo "ok:   no BUG, WARNING, lockdep report or stall on either console" | tee -a "$vmout/check.log"
fi
stage "checks" "$t"
stage "total" "$t0"
exit $rc
