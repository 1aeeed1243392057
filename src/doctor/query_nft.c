// SPDX-License-Identifier: MIT
/*
 * The live nftables ruleset through libnftables: "list ruleset" with
 * JSON output, as `nft -j list ruleset` prints it.  Listing needs
 * CAP_NET_ADMIN: without it libnftables says "Operation not permitted",
 * which is -EPERM here.  libnftables exit()s the process (status 3) when
 * it cannot open its netlink socket, as in a kernel without nfnetlink, so
 * the socket is tried here first: a kernel without NETLINK_NETFILTER has
 * no nftables, its ruleset is empty.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nftables/libnftables.h>

#include "query.h"

/* 0 when a netfilter netlink socket opens, 1 when the kernel has none,
 * else -errno. */
static int no_nfnetlink(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_NETFILTER);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EPROTONOSUPPORT ? 1 : -errno;
}

int ig_dr_q_nft_ruleset(void *ctx, char **json)
{
	struct nft_ctx *nft;
	const char *out, *err;
	int ret = no_nfnetlink();

	*json = NULL;
	if (ret) {
		*json = ret > 0 ? strdup("{\"nftables\": []}") : NULL;
		return ret < 0 ? ret : *json ? 0 : -ENOMEM;
	}
	nft = nft_ctx_new(NFT_CTX_DEFAULT);
	if (!nft)
		return -ENOMEM;
	nft_ctx_output_set_flags(nft, NFT_CTX_OUTPUT_JSON);
	if (nft_ctx_buffer_output(nft) || nft_ctx_buffer_error(nft)) {
		nft_ctx_free(nft);
		return -ENOMEM;
	}
	if (nft_run_cmd_from_buffer(nft, "list ruleset")) {
		err = nft_ctx_get_error_buffer(nft);
		ret = err && strstr(err, "Operation not permitted") ? -EPERM
								    : -EIO;
	} else {
		out = nft_ctx_get_output_buffer(nft);
		*json = strdup(out ? out : "");
		ret = *json ? 0 : -ENOMEM;
	}
	nft_ctx_free(nft);
	return ret;
}
