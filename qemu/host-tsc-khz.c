// SPDX-License-Identifier: GPL-2.0
/*
 * The host's TSC rate in kHz, which a TCG guest's RDTSC counts at (QEMU
 * returns the host's TSC there, unless -icount): qemu/boot.sh hands it to
 * the guest kernel as tsc_early_khz=, which could not calibrate it.
 * Counts TSC ticks across 200 ms of CLOCK_MONOTONIC_RAW.
 */
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(void)
{
	struct timespec nap = { 0, 200000000 };
	long long t0 = now_ns(), c0 = __rdtsc(), t1, c1;

	nanosleep(&nap, NULL);
	c1 = __rdtsc();
	t1 = now_ns();
	if (t1 <= t0 || c1 <= c0)
		return 1;
	printf("%lld\n", (c1 - c0) * 1000000 / (t1 - t0));
	return 0;
}
