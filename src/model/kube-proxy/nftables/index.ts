/**
 * kube-proxy's nftables mode behind the common {@link ProxyModeImpl} contract: the
 * generator of the `ip kube-proxy` table and the walker that runs a packet through it.
 *
 * Source: kubernetes/kubernetes `pkg/proxy/nftables/proxier.go` (KEP-3866; GA in v1.33),
 * see ./generate.ts and ./walk.ts for the details and what is assumed.
 */
import type { ProxyModeImpl } from '../types';
import { generateNftables } from './generate';
import type { NftRuleset } from './types';
import { processNftables } from './walk';

export type { NftRuleset } from './types';
export { generateNftables } from './generate';
export { formatNftables } from './format';
export { processNftables } from './walk';

/** kube-proxy's nftables mode (`mode: nftables`). */
export const nftablesMode: ProxyModeImpl<NftRuleset> = {
  mode: 'nftables',
  generate: (cluster, nodeName) => generateNftables(cluster, nodeName),
  process: processNftables,
};
