/**
 * The kube-proxy modes the model implements, by name. kube-proxy's own `mode` setting
 * (KubeProxyConfiguration) picks one; the default on Linux is iptables.
 */
import type { ModeRuleset, ProxyMode, ProxyModeImpl } from './types';
import { iptablesMode } from './iptables/mode';
import { ipvsMode } from './ipvs';
import { nftablesMode } from './nftables';

const MODES: Partial<Record<ProxyMode, ProxyModeImpl>> = {
  iptables: iptablesMode as unknown as ProxyModeImpl,
  nftables: nftablesMode as unknown as ProxyModeImpl,
  ipvs: ipvsMode as unknown as ProxyModeImpl,
};

/**
 * The implementation of `mode`.
 * @throws {Error} `kube-proxy mode "<mode>" is not modelled yet` for a mode without one.
 */
export function proxyMode(mode: ProxyMode): ProxyModeImpl<ModeRuleset> {
  const impl = MODES[mode];
  if (!impl) throw new Error(`kube-proxy mode "${mode}" is not modelled yet`);
  return impl;
}

/** The modes that have an implementation. */
export function modelledModes(): ProxyMode[] {
  return Object.keys(MODES) as ProxyMode[];
}
