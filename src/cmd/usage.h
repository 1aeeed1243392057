/* SPDX-License-Identifier: MIT */
#ifndef IG_USAGE_H
#define IG_USAGE_H

extern const char ig_usage_main[];
extern const char ig_usage_client[];
extern const char ig_usage_server[];
extern const char ig_usage_diff[];

#endif
