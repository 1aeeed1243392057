/* SPDX-License-Identifier: MIT */
#ifndef IG_PLOT_H
#define IG_PLOT_H

#include <stddef.h>

#include "engine/result.h"

/*
 * Writes a figure of the results to path: .svg or .png by its extension
 * (case-insensitive), 1200 x 500 px.
 * Left panel: bandwidth (Gb/s, 10^9 bit/s) of every bandwidth result
 * (has_lat false) against message size; right panel: latency p50
 * (microseconds, half round trip) of every latency result against size.
 * One line with markers per measurement series: a test name, and when the
 * results differ in them, a number of streams, a window and zero-copy
 * ("tcp_bw -P 4 --window 64K": -P/--window lists draw one line per
 * combination, never a mean of them); verbs tests solid, TCP dashed, the
 * lines of one test in its colour with other markers and shades; a
 * legend, log2 x axis labelled with sizes (2, 64, 1K, 64K, 1M...); y axes:
 * bandwidth linear from 0, latency log10 when max/min > 20 else linear
 * from 0.  Equal results of one series and size are averaged; a latency result
 * whose histogram cannot give a p50 (fewer than 2 samples) is left out.
 * A panel without results says so ("no latency results"); n = 0 still
 * writes a valid figure with both panels saying so.
 * Returns 0 or -errno with one line in err (e.g. "--plot: 'x.gif' must end
 * in .svg or .png"); on failure after the file was opened, it is removed.
 */
int ig_plot_write(const char *path, const struct ig_result *res, size_t n,
		  char *err, size_t errlen);

/* --plot's file format, from the name's extension (.svg or .png, any
 * case, after a stem); -EINVAL with the one line above otherwise. */
enum ig_plot_format { IG_PLOT_SVG, IG_PLOT_PNG };
int ig_plot_format(const char *path, char *err, size_t errlen);

/* After a figure drawn with cairo's text API, when no cairo object is
 * alive: ASan builds drop cairo's and fontconfig's font caches (else
 * LeakSanitizer reports part of them); other builds keep them. */
void ig_plot_release_caches(void);

#endif
