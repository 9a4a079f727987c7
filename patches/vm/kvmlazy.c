// SPDX-License-Identifier: GPL-2.0
/*
 * kvmlazy - a KVM guest that leaves guest mode often but never returns
 * to user space for long: the vCPU thread's kernel run loop is where a
 * lazy request must be honoured (patch 2: TIF_NEED_RESCHED_LAZY is guest
 * entry work, as in mainline).
 *
 *   kvmlazy -c CPU SECONDS ROUNDS
 *
 * The guest (16-bit real mode) runs ROUNDS CPUID instructions, each an
 * exit that KVM handles in the kernel, then one OUT to port 0x10, an
 * exit to user space, and starts again. The thread runs on CPU until
 * SECONDS have passed and prints its pid and how long a stretch of
 * ROUNDS exits took, so that the check can tell whether a lazy request
 * waited for the next CPUID exit or for the tick.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "kvmlazy: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	/* mov esi, N; again: xor eax, eax; cpuid; dec esi; jnz again;
	 * out 0x10, al; jmp 0
	 */
	uint8_t code[] = { 0x66, 0xbe, 0, 0, 0, 0, 0x66, 0x31, 0xc0, 0x0f, 0xa2,
			   0x66, 0x4e, 0x75, 0xf7, 0xe6, 0x10, 0xeb, 0xed };
	struct kvm_userspace_memory_region mem = { 0 };
	struct kvm_sregs sregs;
	struct kvm_regs regs = { .rip = 0, .rflags = 2 };
	struct kvm_run *run;
	unsigned long stretches = 0;
	double end, t, sum = 0, max = 0;
	cpu_set_t set;
	int kvm, vm, vcpu, size, cpu;
	uint32_t rounds;
	uint8_t *guest;

	if (argc != 5 || strcmp(argv[1], "-c")) {
		fprintf(stderr, "usage: kvmlazy -c CPU SECONDS ROUNDS\n");
		return 2;
	}
	cpu = atoi(argv[2]);
	end = now() + atof(argv[3]);
	rounds = strtoul(argv[4], NULL, 0);
	memcpy(code + 2, &rounds, 4);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		die("/dev/kvm");
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		die("KVM_CREATE_VM");
	guest = mmap(NULL, 0x1000, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (guest == MAP_FAILED)
		die("mmap");
	memcpy(guest, code, sizeof(code));
	mem.memory_size = 0x1000;
	mem.userspace_addr = (uintptr_t)guest;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &mem))
		die("KVM_SET_USER_MEMORY_REGION");
	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		die("KVM_CREATE_VCPU");
	size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	if (size < (int)sizeof(*run))
		die("KVM_GET_VCPU_MMAP_SIZE");
	run = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		die("mmap vcpu");
	if (ioctl(vcpu, KVM_GET_SREGS, &sregs))
		die("KVM_GET_SREGS");
	sregs.cs.base = 0;
	sregs.cs.selector = 0;
	if (ioctl(vcpu, KVM_SET_SREGS, &sregs) || ioctl(vcpu, KVM_SET_REGS, &regs))
		die("KVM_SET_REGS");

	printf("kvmlazy: pid %d cpu %d rounds %u\n", getpid(), cpu, rounds);
	fflush(stdout);
	while ((t = now()) < end) {
		if (ioctl(vcpu, KVM_RUN, 0))
			die("KVM_RUN");
		if (run->exit_reason != KVM_EXIT_IO) {
			fprintf(stderr, "kvmlazy: unexpected exit %u\n",
				run->exit_reason);
			return 1;
		}
		t = now() - t;
		/* the first stretch starts mid-way: not counted */
		if (stretches++) {
			sum += t;
			if (t > max)
				max = t;
		}
	}
	if (stretches < 2) {
		fprintf(stderr, "kvmlazy: no whole stretch of %u exits\n", rounds);
		return 1;
	}
	printf("kvmlazy: %lu stretches of %u exits, mean %.0f us, max %.0f us\n",
	       stretches - 1, rounds, sum / (stretches - 1) * 1e6, max * 1e6);
	return 0;
}
