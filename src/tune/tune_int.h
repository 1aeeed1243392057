/* SPDX-License-Identifier: MIT */
#ifndef IG_TUNE_INT_H
#define IG_TUNE_INT_H

/* The inside of the tune layer: one read/write pair per kind of knob. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tune.h"

/* read: the knob's value as this layer writes it; write: sets val.  Both
 * 0 or -errno; write puts one line in err. */
struct ig_knob_ops {
	int (*read)(const char *root, const struct ig_tune_change *c, char *val,
		    size_t len);
	int (*write)(const char *root, const struct ig_tune_change *c,
		     const char *val, char *err, size_t len);
};

extern const struct ig_knob_ops ig_knob_sysctl, ig_knob_rps, ig_knob_irq,
	ig_knob_governor, ig_knob_mtu, ig_knob_ipoib, ig_knob_feature,
	ig_knob_ring, ig_knob_coalesce, ig_knob_channels, ig_knob_qdisc;

/* tune_io.c: root's path of fmt (root NULL or "/": the live system). */
void ig_tune_path(char *p, size_t len, const char *root, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The text of the file at path, its whitespace runs made one space, no
 * space at either end: 0 or -errno (-EOVERFLOW longer than len). */
int ig_tune_read_text(const char *path, char *val, size_t len);
/* Writes val into path (a /proc or /sys file): 0 or -errno with one line
 * in err. */
int ig_tune_write_text(const char *path, const char *val, char *err,
		       size_t len);

/* tune.c: the kernel's feature strings behind one of our feature names
 * ("tso" -> "tx-tcp-segmentation", ...), NULL-terminated; NULL for an
 * unknown name. */
const char *const *ig_tune_feature_strings(const char *name);
/* "on" -> 1, "off" -> 0, else -1. */
int ig_tune_onoff(const char *s);
/* "cpuN" or "cpuA-B" (A <= B < 4096): 0 with *a, *b, else -EINVAL. */
int ig_tune_cpu_range(const char *t, uint32_t *a, uint32_t *b);
/* s is a decimal number that fits in 32 bits: 0, else -EINVAL. */
int ig_tune_u32(const char *s, uint32_t *v);

/* qdisc_text.c: a qdisc as saved in a value, "kind=tbf handle=8001:
 * parent=root opts=HEX" (HEX: the raw TCA_OPTIONS of the dump). */
struct ig_qdisc_saved {
	char kind[32];
	uint32_t handle, parent; /* TC_H_ROOT or TC_H_INGRESS */
	unsigned char opts[IG_TUNE_VAL_LEN / 2];
	size_t optlen;
};
/* 0, or -EINVAL when s is not in that form. */
int ig_qdisc_parse(const char *s, struct ig_qdisc_saved *q);
/* 0, or -ENOSPC when it does not fit in len. */
int ig_qdisc_format(const struct ig_qdisc_saved *q, char *s, size_t len);
/* The `tc qdisc add` line that recreates q on dev. */
void ig_qdisc_cmd(const struct ig_qdisc_saved *q, const char *dev, char *buf,
		  size_t len);

#endif
