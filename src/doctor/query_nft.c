// SPDX-License-Identifier: MIT
/*
 * The live nftables ruleset through libnftables: "list ruleset" with
 * JSON output, as `nft -j list ruleset` prints it.  Listing needs
 * CAP_NET_ADMIN: without it libnftables says "Operation not permitted",
 * which is -EPERM here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <nftables/libnftables.h>

#include "query.h"

int ig_dr_q_nft_ruleset(void *ctx, char **json)
{
	struct nft_ctx *nft = nft_ctx_new(NFT_CTX_DEFAULT);
	const char *out, *err;
	int ret = 0;

	*json = NULL;
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
