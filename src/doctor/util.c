// SPDX-License-Identifier: MIT
/* Pure helpers of the doctor: CPU lists, link rates. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"

static void cpus_set(struct ig_dr_cpus *c, long cpu)
{
	c->b[cpu / 64] |= 1ull << (cpu % 64);
}

/* "0-15,32-47" (the kernel's cpulist format); "" is the empty set. */
int ig_dr_cpus_parse(const char *list, struct ig_dr_cpus *c)
{
	const char *s = list;
	char *end;

	memset(c, 0, sizeof(*c));
	while (*s && *s != '\n') {
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s || lo < 0 || lo >= IG_DR_MAX_CPUS)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			hi = strtol(s + 1, &end, 10);
			if (end == s + 1 || hi < lo || hi >= IG_DR_MAX_CPUS)
				return -EINVAL;
			s = end;
		}
		for (long i = lo; i <= hi; i++)
			cpus_set(c, i);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

int ig_dr_cpus_count(const struct ig_dr_cpus *c)
{
	int n = 0;

	for (size_t i = 0; i < IG_DR_MAX_CPUS / 64; i++)
		n += __builtin_popcountll(c->b[i]);
	return n;
}

/* The kernel's hex mask (rps_cpus, smp_affinity): 32-bit groups, most
 * significant first, joined by commas: "ff", "1,00000000". */
void ig_dr_cpus_mask(const struct ig_dr_cpus *c, char *buf, size_t len)
{
	int top = 0;
	size_t n = 0;

	for (int g = 0; g < IG_DR_MAX_CPUS / 32; g++)
		if ((uint32_t)(c->b[g / 2] >> (g % 2 * 32)))
			top = g;
	buf[0] = 0;
	for (int g = top; g >= 0 && n < len; g--) {
		uint32_t w = (uint32_t)(c->b[g / 2] >> (g % 2 * 32));

		n += (size_t)snprintf(buf + n, len - n,
				      g == top ? "%x" : ",%08x", w);
	}
}

bool ig_dr_cpus_meet(const struct ig_dr_cpus *a, const struct ig_dr_cpus *b)
{
	for (size_t i = 0; i < IG_DR_MAX_CPUS / 64; i++)
		if (a->b[i] & b->b[i])
			return true;
	return false;
}

/* Data rate per lane after line encoding, by the speed name the kernel's
 * rate attribute prints (drivers/infiniband/core/sysfs.c, rate_show). */
static const struct {
	const char *name;
	double gbps;
	const char *coding;
} ib_speeds[] = {
	{ "SDR", 2.5 * 8 / 10, "2.5 Gb/s per lane, 8b/10b" },
	{ "DDR", 5.0 * 8 / 10, "5 Gb/s per lane, 8b/10b" },
	{ "QDR", 10.0 * 8 / 10, "10 Gb/s per lane, 8b/10b" },
	{ "FDR10", 10.3125 * 64 / 66, "10.3125 Gb/s per lane, 64b/66b" },
	{ "FDR", 14.0625 * 64 / 66, "14.0625 Gb/s per lane, 64b/66b" },
	{ "EDR", 25.78125 * 64 / 66, "25.78125 Gb/s per lane, 64b/66b" },
	{ "HDR", 50.0, "53.125 Gb/s per lane PAM4, 50 after FEC" },
	{ "NDR", 100.0, "106.25 Gb/s per lane PAM4, 100 after FEC" },
	{ "XDR", 200.0, "212.5 Gb/s per lane PAM4, 200 after FEC" },
};

int ig_dr_ib_rate_parse(const char *s, int *lanes, double *lane_gbps,
			const char **name, const char **coding)
{
	char speed[16] = "SDR"; /* kernels before 5.x print "(4X)" */
	const char *p = strchr(s, '(');
	int w;

	if (!p || sscanf(p, "(%dX %15[A-Z0-9]", &w, speed) < 1 || w < 1 ||
	    w > 32)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(ib_speeds) / sizeof(*ib_speeds); i++) {
		if (strcmp(speed, ib_speeds[i].name))
			continue;
		*lanes = w;
		*lane_gbps = ib_speeds[i].gbps;
		*name = ib_speeds[i].name;
		*coding = ib_speeds[i].coding;
		return 0;
	}
	return -EINVAL;
}

/* PCIe 1-2: 8b/10b; 3-5: 128b/130b; 6: PAM4 FLIT mode, 242 of 256 bytes
 * carry data.  TLP and DLLP overhead come on top (about 5-15 %). */
double ig_dr_pcie_lane_gbps(double gts)
{
	if (gts <= 0)
		return 0;
	if (gts < 8)
		return gts * 8 / 10;
	if (gts < 64)
		return gts * 128 / 130;
	return gts * 242 / 256;
}

const char *ig_dr_pcie_coding(double gts)
{
	return gts < 8 ? "8b/10b" : gts < 64 ? "128b/130b" : "FLIT 242/256";
}
