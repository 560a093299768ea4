/**
 * kube-proxy's iptables rules for one Service port on one node. Source:
 * kubernetes/kubernetes `pkg/proxy/iptables/proxier.go` (`syncProxyRules`,
 * `writeServiceToEndpointRules`), read at danwinship/kubernetes@07c76c3a11bef9f4a6de65237bc91adc2c5b50ee.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import { cidrContains } from '../../net/ip';
import { serviceChainNames } from './hash';
import type { Match, RuleSpec, RuleWriter } from './rule';
import { comment as c, jump } from './build';
import { portEndpoints } from './portEndpoints';
import type { NamedEndpoint } from './portEndpoints';

/** What every Service's rules on one node share. */
export interface ServiceRuleContext {
  cluster: Cluster;
  node: ClusterNode;
  /** The local-traffic detector's CIDR (`IfLocal`/`IfNotLocal`); none without a detector. */
  localCIDR: string | undefined;
  /**
   * Write the counted `-d 127.0.0.0/8 … -m nfacct` NodePort rule (localhost NodePorts on IPv4
   * with the `localhost_nps_accepted_pkts` counter present).
   */
  localhostNodePortRule: boolean;
  /** `largeClusterMode`: no comments in KUBE-SEP- rules and the jumps to them. */
  largeClusterMode: boolean;
}

/**
 * The per-service-port part of `syncProxyRules` (proxier.go), in the order it writes:
 * ClusterIP, externalIPs and load-balancer IPs in KUBE-SERVICES (or filter REJECT/DROP
 * rules when there are no usable endpoints), NodePort and healthCheckNodePort rules, then
 * the KUBE-EXT-, KUBE-FW-, KUBE-SVC-/KUBE-SVL- and KUBE-SEP- chains.
 */
export function writeServiceRules(w: RuleWriter, ctx: ServiceRuleContext, svc: ServiceModel): void {
  const { cluster, node, localCIDR, localhostNodePortRule } = ctx;
  // appendServiceCommentLocked: the per-endpoint comments go in large clusters.
  const epComment = (text: string): Match[] => (ctx.largeClusterMode ? [] : [c(text)]);
  // ipMode Proxy ingress IPs are skipped (servicechangetracker.go, proxyutil.IsVIPMode).
  const lbVIPs = svc.ingress.filter((i) => i.ipMode === 'VIP').map((i) => i.ip);
  for (const port of svc.ports) {
    const S = servicePortKey(svc, port.name);
    const p = port.protocol;
    const names = serviceChainNames(S, p);
    const eps = portEndpoints(cluster, svc, S, p, node.name, ctx.largeClusterMode);
    const hasEndpoints = eps.hasAny;
    const usesClusterChain = eps.cluster.length > 0;
    const usesLocalChain =
      eps.local.length > 0 &&
      (svc.externalTrafficPolicy === 'Local' || svc.internalTrafficPolicy === 'Local');

    let internalChain = names.svc;
    let hasInternal = hasEndpoints;
    if (svc.internalTrafficPolicy === 'Local') {
      internalChain = names.svl;
      if (eps.local.length === 0) hasInternal = false;
    }
    let externalPolicyChain = names.svc;
    let hasExternal = hasEndpoints;
    if (svc.externalTrafficPolicy === 'Local') {
      externalPolicyChain = names.svl;
      if (eps.local.length === 0) hasExternal = false;
    }
    const extChain = names.ext;
    // serviceport.go ExternallyAccessible, per port: a NodePort, a VIP-mode LB IP or an externalIP.
    const externallyAccessible =
      port.nodePort !== 0 || lbVIPs.length > 0 || svc.externalIPs.length > 0;
    const usesExtChain = hasEndpoints && externallyAccessible;
    const usesFW = hasEndpoints && lbVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
    const lbChain = usesFW ? names.fw : extChain;

    let internalFilter: { target: 'REJECT' | 'DROP'; comment: string } | undefined;
    let externalFilter: { target: 'REJECT' | 'DROP'; comment: string } | undefined;
    if (!hasEndpoints) {
      internalFilter = { target: 'REJECT', comment: `${S} has no endpoints` };
      externalFilter = internalFilter;
    } else {
      if (!hasInternal) internalFilter = { target: 'DROP', comment: `${S} has no local endpoints` };
      if (!hasExternal) externalFilter = { target: 'DROP', comment: `${S} has no local endpoints` };
    }
    const proto: Match = { kind: 'proto', proto: p };
    const dst = (ip: string): Match => ({ kind: 'dst', cidr: ip, not: false });
    const dport = (n: number): Match => ({ kind: 'dport', port: n });

    if (hasInternal)
      w.add(
        'nat',
        'KUBE-SERVICES',
        [c(`${S} cluster IP`), proto, dst(svc.clusterIP), dport(port.port)],
        jump(internalChain),
      );
    else if (internalFilter)
      w.add(
        'filter',
        'KUBE-SERVICES',
        [c(internalFilter.comment), proto, dst(svc.clusterIP), dport(port.port)],
        {
          kind: internalFilter.target,
        },
      );

    for (const eip of svc.externalIPs) {
      if (hasEndpoints)
        w.add(
          'nat',
          'KUBE-SERVICES',
          [c(`${S} external IP`), proto, dst(eip), dport(port.port)],
          jump(extChain),
        );
      if (!hasExternal && externalFilter)
        w.add(
          'filter',
          'KUBE-EXTERNAL-SERVICES',
          [c(externalFilter.comment), proto, dst(eip), dport(port.port)],
          {
            kind: externalFilter.target,
          },
        );
    }

    for (const lbip of lbVIPs) {
      if (hasEndpoints)
        w.add(
          'nat',
          'KUBE-SERVICES',
          [c(`${S} loadbalancer IP`), proto, dst(lbip), dport(port.port)],
          jump(lbChain),
        );
      if (usesFW)
        w.add(
          'filter',
          'KUBE-PROXY-FIREWALL',
          [c(`${S} traffic not accepted by ${names.fw}`), proto, dst(lbip), dport(port.port)],
          { kind: 'DROP' },
        );
    }
    if (!hasExternal && externalFilter)
      for (const lbip of lbVIPs)
        w.add(
          'filter',
          'KUBE-EXTERNAL-SERVICES',
          [c(externalFilter.comment), proto, dst(lbip), dport(port.port)],
          {
            kind: externalFilter.target,
          },
        );

    if (port.nodePort !== 0) {
      if (hasEndpoints) {
        if (localhostNodePortRule)
          w.add(
            'nat',
            'KUBE-NODEPORTS',
            [
              c(S),
              proto,
              dst('127.0.0.0/8'),
              dport(port.nodePort),
              { kind: 'nfacct', name: 'localhost_nps_accepted_pkts' },
            ],
            jump(extChain),
          );
        w.add('nat', 'KUBE-NODEPORTS', [c(S), proto, dport(port.nodePort)], jump(extChain));
      }
      if (!hasExternal && externalFilter)
        w.add(
          'filter',
          'KUBE-EXTERNAL-SERVICES',
          [
            c(externalFilter.comment),
            { kind: 'addrtype', dir: 'dst', type: 'LOCAL' },
            proto,
            dport(port.nodePort),
          ],
          { kind: externalFilter.target },
        );
    }

    if (svc.healthCheckNodePort !== 0)
      w.add(
        'filter',
        'KUBE-NODEPORTS',
        [
          c(`${S} health check node port`),
          { kind: 'proto', proto: 'tcp' },
          dport(svc.healthCheckNodePort),
        ],
        { kind: 'ACCEPT' },
      );

    if (hasInternal) {
      const base: Match[] = [c(`${S} cluster IP`), proto, dst(svc.clusterIP), dport(port.port)];
      if (cluster.kubeProxy.masqueradeAll)
        w.add('nat', internalChain, base, jump('KUBE-MARK-MASQ'));
      else if (localCIDR)
        w.add(
          'nat',
          internalChain,
          [...base, { kind: 'src', cidr: localCIDR, not: true }],
          jump('KUBE-MARK-MASQ'),
        );
    }

    if (usesExtChain) {
      w.chain('nat', extChain);
      if (svc.externalTrafficPolicy !== 'Local') {
        w.add(
          'nat',
          extChain,
          [c(`masquerade traffic for ${S} external destinations`)],
          jump('KUBE-MARK-MASQ'),
        );
      } else {
        if (localCIDR)
          w.add(
            'nat',
            extChain,
            [
              c(`pod traffic for ${S} external destinations`),
              { kind: 'src', cidr: localCIDR, not: false },
            ],
            jump(names.svc),
          );
        w.add(
          'nat',
          extChain,
          [
            c(`masquerade LOCAL traffic for ${S} external destinations`),
            { kind: 'addrtype', dir: 'src', type: 'LOCAL' },
          ],
          jump('KUBE-MARK-MASQ'),
        );
        w.add(
          'nat',
          extChain,
          [
            c(`route LOCAL traffic for ${S} external destinations`),
            { kind: 'addrtype', dir: 'src', type: 'LOCAL' },
          ],
          jump(names.svc),
        );
      }
      if (hasExternal) w.add('nat', extChain, [], jump(externalPolicyChain));
    }

    if (usesFW) {
      w.chain('nat', names.fw);
      let allowFromNode = false;
      for (const cidr of svc.loadBalancerSourceRanges) {
        w.add(
          'nat',
          names.fw,
          [c(`${S} loadbalancer IP`), { kind: 'src', cidr, not: false }],
          jump(extChain),
        );
        if (cidrContains(cidr, node.internalIP)) allowFromNode = true;
      }
      if (allowFromNode)
        for (const lbip of lbVIPs)
          w.add(
            'nat',
            names.fw,
            [c(`${S} loadbalancer IP`), { kind: 'src', cidr: lbip, not: false }],
            jump(extChain),
          );
      w.add('nat', names.fw, [c(`other traffic to ${S} will be dropped by KUBE-PROXY-FIREWALL`)], {
        kind: 'none',
      });
    }

    const affinity = svc.sessionAffinity === 'ClientIP';
    // The cascades and the KUBE-SEP- chains are the same on every node whose lists are the
    // same: the writer reuses them (RuleWriter.addRun, sharedChain).
    const writeLB = (chain: string, members: NamedEndpoint[], run: string) => {
      w.chain('nat', chain);
      w.addRun('nat', chain, run, () => {
        const specs: RuleSpec[] = [];
        if (affinity)
          for (const { ip, sep } of members)
            specs.push({
              matches: [
                ...epComment(`${S} -> ${ip}`),
                { kind: 'recent', name: sep, mode: 'rcheck', seconds: svc.affinityTimeoutSeconds },
              ],
              target: jump(sep),
            });
        members.forEach(({ ip, sep }, i) => {
          const m: Match[] = epComment(`${S} -> ${ip}`);
          if (i < members.length - 1)
            m.push({ kind: 'statistic', probability: 1 / (members.length - i) });
          specs.push({ matches: m, target: jump(sep) });
        });
        return specs;
      });
    };
    if (usesClusterChain) writeLB(names.svc, eps.cluster, eps.clusterRun);
    if (usesLocalChain) writeLB(names.svl, eps.local, eps.localRun);

    w.adoptSorted('nat', eps.sepChains);
  }
}
