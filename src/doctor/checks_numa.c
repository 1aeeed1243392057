// SPDX-License-Identifier: MIT
/* NUMA: the HCA's node against the CPUs ibgap may run on and the CPUs its
 * interrupts are steered to; the CPU frequency governor. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_int.h"

struct irqs {
	const struct ig_dr_cpus *local;
	int n, far;
	char far_irq[IG_DR_MAX_CHANGES][16]; /* the first far ones */
	char first_far[PATH_MAX];
	char first_val[128];
};

static void one_irq(struct ig_dr *d, const char *irq, struct irqs *x)
{
	char path[PATH_MAX], val[128];
	struct ig_dr_cpus aff;

	snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", irq);
	if (ig_dr_read(d, path, val, sizeof(val)) ||
	    ig_dr_cpus_parse(val, &aff))
		return;
	x->n++;
	if (ig_dr_cpus_meet(&aff, x->local))
		return;
	if (x->far < IG_DR_MAX_CHANGES)
		snprintf(x->far_irq[x->far], sizeof(x->far_irq[0]), "%s", irq);
	if (!x->far++) {
		snprintf(x->first_far, sizeof(x->first_far), "%s", path);
		snprintf(x->first_val, sizeof(x->first_val), "%s", val);
	}
}

static int msi_cb(struct ig_dr *d, const char *irq, void *arg)
{
	one_irq(d, irq, arg);
	return 0;
}

/* No msi_irqs directory: the /proc/interrupts lines that name the PCI
 * address ("mlx5_comp0@pci:0000:3b:00.0"). */
static void irqs_from_proc(struct ig_dr *d, const char *bdf, struct irqs *x)
{
	FILE *f = ig_dr_fopen(d, "/proc/interrupts");
	char *line = NULL, irq[16];
	size_t cap = 0;

	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		if (strstr(line, bdf) && sscanf(line, " %15[0-9]:", irq) == 1)
			one_irq(d, irq, x);
	free(line);
	fclose(f);
}

static void check_irqs(struct ig_dr *d, struct ig_dr_pctx *c, const char *base,
		       const struct ig_dr_cpus *local, const char *local_list)
{
	struct irqs x = { .local = local };
	char path[PATH_MAX], bdf[64] = "";
	struct ig_dr_finding *f;

	snprintf(path, sizeof(path), "%s/msi_irqs", base);
	if (c->dev && c->dev->pci[0])
		snprintf(bdf, sizeof(bdf), "%s", c->dev->pci);
	if (ig_dr_list(d, path, true, msi_cb, &x) < 0 &&
	    (bdf[0] || !ig_dr_link_base(d, base, bdf, sizeof(bdf))))
		irqs_from_proc(d, bdf, &x);
	if (!x.far)
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "numa.irq.far",
		"%d of %d interrupts of %s are steered to CPUs off its NUMA "
		"node: receive processing and its data cross the "
		"interconnect",
		x.far, x.n, c->p->rdma_dev);
	ig_dr_ev(f, x.first_far, "%s", x.first_val);
	snprintf(path, sizeof(path), "%s/local_cpulist", base);
	ig_dr_ev(f, path, "%s", local_list);
	ig_dr_fix(f,
		  "steer them to CPUs %s: stop irqbalance, then write the "
		  "list to each /proc/irq/N/smp_affinity_list (or "
		  "set_irq_affinity_cpulist.sh %s %s)",
		  local_list, local_list, c->p->netdev);
	if (x.far > IG_DR_MAX_CHANGES) {
		ig_dr_not_tried(f,
				"%d interrupts to move, more than the %d "
				"changes of one trial",
				x.far, IG_DR_MAX_CHANGES);
		return;
	}
	for (int i = 0; i < x.far; i++)
		ig_dr_try(f, IG_TUNE_IRQ, "", x.far_irq[i], "%s", local_list);
}

/* Cpus_allowed_list of /proc/self/status: where this process may run. */
static int allowed_cpus(struct ig_dr *d, char *buf, size_t len)
{
	FILE *f = ig_dr_fopen(d, "/proc/self/status");
	char *line = NULL;
	size_t cap = 0;
	int ret = -1;

	if (!f)
		return -1;
	while (ret && getline(&line, &cap, f) > 0) {
		if (strncmp(line, "Cpus_allowed_list:", 18))
			continue;
		snprintf(buf, len, "%s", line + 18 + strspn(line + 18, " \t"));
		buf[strcspn(buf, "\n")] = 0;
		ret = 0;
	}
	free(line);
	fclose(f);
	return ret;
}

static void check_node(struct ig_dr *d, struct ig_dr_pctx *c, const char *base,
		       int node, const struct ig_dr_cpus *local,
		       const char *local_list)
{
	char path[PATH_MAX], list[512];
	struct ig_dr_cpus allowed;
	struct ig_dr_finding *f;

	if (allowed_cpus(d, list, sizeof(list)) ||
	    ig_dr_cpus_parse(list, &allowed) ||
	    ig_dr_cpus_meet(&allowed, local))
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "numa.far",
		"ibgap may run only on CPUs %s, none of them on %s's NUMA "
		"node %d (CPUs %s): every byte crosses the interconnect",
		list, c->p->rdma_dev, node, local_list);
	ig_dr_ev(f, "/proc/self/status", "Cpus_allowed_list: %s", list);
	snprintf(path, sizeof(path), "%s/numa_node", base);
	ig_dr_ev(f, path, "%d", node);
	snprintf(path, sizeof(path), "%s/local_cpulist", base);
	ig_dr_ev(f, path, "%s", local_list);
	ig_dr_fix(f,
		  "run on the HCA's node: numactl --cpunodebind=%d "
		  "--membind=%d ibgap ... (or taskset -c %s)",
		  node, node, local_list);
	ig_dr_not_tried(f, "where ibgap runs is its own placement, not a "
			   "setting of the host: run it under numactl");
}

void ig_dr_check_numa(struct ig_dr *d, struct ig_dr_pctx *c)
{
	char base[256], path[PATH_MAX], local_list[512];
	struct ig_dr_cpus local;
	int node;

	ig_inv_path(base, sizeof(base), c->p->rdma_dev, 0, "device");
	snprintf(path, sizeof(path), "%s/numa_node", base);
	/* -1: one node, or the firmware does not say: nothing to compare */
	if (ig_dr_inv_int(d, c->dev ? c->dev->numa_node : -1, path, &node))
		return;
	if (node < 0) {
		ig_dr_not_examined(d, "irqs",
				   "%s has no NUMA node (numa_node -1): "
				   "placement not compared",
				   c->p->rdma_dev);
		return;
	}
	snprintf(path, sizeof(path), "%s/local_cpulist", base);
	if (ig_dr_inv_str(d, c->dev ? c->dev->local_cpulist : NULL, path,
			  local_list, sizeof(local_list)))
		return;
	if (ig_dr_cpus_parse(local_list, &local)) {
		ig_dr_read_err(d, path, EINVAL);
		return;
	}
	check_node(d, c, base, node, &local, local_list);
	check_irqs(d, c, base, &local, local_list);
}

struct gov {
	int n, slow;
	char first[PATH_MAX], val[64];
};

static int gov_cb(struct ig_dr *d, const char *cpu, void *arg)
{
	struct gov *g = arg;
	char path[PATH_MAX], val[64];

	if (strncmp(cpu, "cpu", 3) || cpu[3] < '0' || cpu[3] > '9')
		return 0;
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/%s/cpufreq/scaling_governor", cpu);
	/* no cpufreq (VMs, fixed clocks) or an offline CPU: quiet */
	if (ig_dr_read_quiet(d, path, val, sizeof(val)))
		return 0;
	g->n++;
	if (!strcmp(val, "performance") || g->slow++)
		return 0;
	snprintf(g->first, sizeof(g->first), "%s", path);
	snprintf(g->val, sizeof(g->val), "%s", val);
	return 0;
}

void ig_dr_check_governor(struct ig_dr *d)
{
	struct ig_dr_finding *f;
	struct gov g = { 0 };

	ig_dr_list(d, "/sys/devices/system/cpu", false, gov_cb, &g);
	if (!g.n)
		ig_dr_not_examined(d, "cpufreq",
				   "no cpufreq in this host (a VM?)");
	if (!g.slow)
		return;
	f = ig_dr_add(
		d, IG_DR_SEV_WARN, "cpu.governor",
		"%d of %d CPUs run the '%s' frequency governor (or another "
		"than 'performance'): cores clock down between bursts, "
		"which adds latency and slows a single TCP stream",
		g.slow, g.n, g.val);
	ig_dr_ev(f, g.first, "%s", g.val);
	ig_dr_fix(f, "cpupower frequency-set -g performance (or tuned-adm "
		     "profile network-latency)");
	ig_dr_try(f, IG_TUNE_GOVERNOR, "", "all", "performance");
}
