/* SPDX-License-Identifier: MIT */
#ifndef IG_SYSINFO_H
#define IG_SYSINFO_H

#define IG_VERSION "0.1.0"

struct ig_sysinfo {
	char hostname[256];
	char kernel[256]; /* uname -r */
	char version[32]; /* ibgap version */
};

void ig_sysinfo_get(struct ig_sysinfo *si);

#endif
