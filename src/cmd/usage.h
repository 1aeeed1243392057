/* SPDX-License-Identifier: MIT */
#ifndef IG_USAGE_H
#define IG_USAGE_H

extern const char ig_usage_main[];
/* diff's --help: before and after its option lines */
extern const char ig_usage_diff[];
extern const char ig_usage_diff_exit[];

#endif
