/**
 * kube-proxy's iptables rules for one Service port on one node. Source:
 * kubernetes/kubernetes `pkg/proxy/iptables/proxier.go` (`syncProxyRules`,
 * `writeServiceToEndpointRules`), read at danwinship/kubernetes@07c76c3a11bef9f4a6de65237bc91adc2c5b50ee.
 */
import type { Cluster, ClusterNode, ServiceModel, ServicePortModel } from '../../scenario/cluster';
import { servicePortKey } from '../../scenario/cluster';
import { cidrContains } from '../../net/ip';
import { serviceChainNames } from './hash';
import type { ServiceChainNames } from './hash';
import type { Match, RuleSpec, RuleWriter } from './rule';
import { comment as c, jump } from './build';
import { portEndpoints } from './portEndpoints';
import type { NamedEndpoint, PortEndpoints } from './portEndpoints';

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

/** A REJECT or DROP rule in the filter table for traffic that has nowhere to go. */
interface FilterRule {
  target: 'REJECT' | 'DROP';
  comment: string;
}

/**
 * What `syncProxyRules` decides for one Service port before it writes a rule: its chains, its
 * endpoints on this node, which chains it uses, and the filter rules for missing endpoints.
 */
interface PortPlan {
  svc: ServiceModel;
  port: ServicePortModel;
  /** The ServicePortName, `namespace/name:port`. */
  S: string;
  names: ServiceChainNames;
  eps: PortEndpoints;
  /** The VIP-mode load-balancer IPs (ipMode Proxy ingress IPs are skipped). */
  lbVIPs: string[];
  proto: Match;
  hasEndpoints: boolean;
  /** Traffic to the ClusterIP has endpoints to go to (`internalTrafficPolicy` counted). */
  hasInternal: boolean;
  /** Traffic from outside has endpoints to go to (`externalTrafficPolicy` counted). */
  hasExternal: boolean;
  /** KUBE-SVC- or, under `internalTrafficPolicy: Local`, KUBE-SVL-. */
  internalChain: string;
  /** KUBE-SVC- or, under `externalTrafficPolicy: Local`, KUBE-SVL-. */
  externalPolicyChain: string;
  usesClusterChain: boolean;
  usesLocalChain: boolean;
  usesExtChain: boolean;
  usesFW: boolean;
  /** Where the load-balancer IP rule jumps: KUBE-FW- with source ranges, else KUBE-EXT-. */
  lbChain: string;
  internalFilter: FilterRule | undefined;
  externalFilter: FilterRule | undefined;
}

const dst = (ip: string): Match => ({ kind: 'dst', cidr: ip, not: false });
const dport = (n: number): Match => ({ kind: 'dport', port: n });

/** The plan of one Service port on the node (proxier.go, the top of the per-port loop). */
function portPlan(
  ctx: ServiceRuleContext,
  svc: ServiceModel,
  port: ServicePortModel,
  lbVIPs: string[],
): PortPlan {
  const S = servicePortKey(svc, port.name);
  const p = port.protocol;
  const names = serviceChainNames(S, p);
  const eps = portEndpoints(ctx.cluster, svc, S, p, ctx.node.name, ctx.largeClusterMode);
  const hasEndpoints = eps.hasAny;
  const internalLocal = svc.internalTrafficPolicy === 'Local';
  const externalLocal = svc.externalTrafficPolicy === 'Local';
  const hasInternal = hasEndpoints && !(internalLocal && eps.local.length === 0);
  const hasExternal = hasEndpoints && !(externalLocal && eps.local.length === 0);
  // serviceport.go ExternallyAccessible, per port: a NodePort, a VIP-mode LB IP or an externalIP.
  const externallyAccessible =
    port.nodePort !== 0 || lbVIPs.length > 0 || svc.externalIPs.length > 0;
  const usesFW = hasEndpoints && lbVIPs.length > 0 && svc.loadBalancerSourceRanges.length > 0;
  const noLocal: FilterRule = { target: 'DROP', comment: `${S} has no local endpoints` };
  const none: FilterRule = { target: 'REJECT', comment: `${S} has no endpoints` };
  return {
    svc,
    port,
    S,
    names,
    eps,
    lbVIPs,
    proto: { kind: 'proto', proto: p },
    hasEndpoints,
    hasInternal,
    hasExternal,
    internalChain: internalLocal ? names.svl : names.svc,
    externalPolicyChain: externalLocal ? names.svl : names.svc,
    usesClusterChain: eps.cluster.length > 0,
    usesLocalChain: eps.local.length > 0 && (externalLocal || internalLocal),
    usesExtChain: hasEndpoints && externallyAccessible,
    usesFW,
    lbChain: usesFW ? names.fw : names.ext,
    internalFilter: !hasEndpoints ? none : !hasInternal ? noLocal : undefined,
    externalFilter: !hasEndpoints ? none : !hasExternal ? noLocal : undefined,
  };
}

/**
 * The ClusterIP, externalIP and load-balancer IP rules in nat KUBE-SERVICES, and in their
 * place the filter rules that reject or drop what has no endpoints (KUBE-SERVICES,
 * KUBE-EXTERNAL-SERVICES), plus the KUBE-PROXY-FIREWALL drops of source-ranged LB IPs.
 */
function writeServiceAddresses(w: RuleWriter, plan: PortPlan): void {
  const { svc, port, S, proto, lbVIPs, internalFilter, externalFilter } = plan;
  if (plan.hasInternal)
    w.add(
      'nat',
      'KUBE-SERVICES',
      [c(`${S} cluster IP`), proto, dst(svc.clusterIP), dport(port.port)],
      jump(plan.internalChain),
    );
  else if (internalFilter)
    w.add(
      'filter',
      'KUBE-SERVICES',
      [c(internalFilter.comment), proto, dst(svc.clusterIP), dport(port.port)],
      { kind: internalFilter.target },
    );

  const dropExternal = !plan.hasExternal ? externalFilter : undefined;
  for (const eip of svc.externalIPs) {
    if (plan.hasEndpoints)
      w.add(
        'nat',
        'KUBE-SERVICES',
        [c(`${S} external IP`), proto, dst(eip), dport(port.port)],
        jump(plan.names.ext),
      );
    if (dropExternal)
      w.add(
        'filter',
        'KUBE-EXTERNAL-SERVICES',
        [c(dropExternal.comment), proto, dst(eip), dport(port.port)],
        { kind: dropExternal.target },
      );
  }

  for (const lbip of lbVIPs) {
    if (plan.hasEndpoints)
      w.add(
        'nat',
        'KUBE-SERVICES',
        [c(`${S} loadbalancer IP`), proto, dst(lbip), dport(port.port)],
        jump(plan.lbChain),
      );
    if (plan.usesFW)
      w.add(
        'filter',
        'KUBE-PROXY-FIREWALL',
        [c(`${S} traffic not accepted by ${plan.names.fw}`), proto, dst(lbip), dport(port.port)],
        { kind: 'DROP' },
      );
  }
  if (dropExternal)
    for (const lbip of lbVIPs)
      w.add(
        'filter',
        'KUBE-EXTERNAL-SERVICES',
        [c(dropExternal.comment), proto, dst(lbip), dport(port.port)],
        { kind: dropExternal.target },
      );
}

/**
 * The NodePort rules in nat KUBE-NODEPORTS (the counted localhost rule first when enabled),
 * the filter rule for a NodePort without endpoints, and the healthCheckNodePort ACCEPT.
 */
function writeNodePorts(w: RuleWriter, ctx: ServiceRuleContext, plan: PortPlan): void {
  const { svc, port, S, proto } = plan;
  if (port.nodePort !== 0) {
    if (plan.hasEndpoints) {
      if (ctx.localhostNodePortRule)
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
          jump(plan.names.ext),
        );
      w.add('nat', 'KUBE-NODEPORTS', [c(S), proto, dport(port.nodePort)], jump(plan.names.ext));
    }
    const filter = plan.externalFilter;
    if (!plan.hasExternal && filter)
      w.add(
        'filter',
        'KUBE-EXTERNAL-SERVICES',
        [
          c(filter.comment),
          { kind: 'addrtype', dir: 'dst', type: 'LOCAL' },
          proto,
          dport(port.nodePort),
        ],
        { kind: filter.target },
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
}

/** The masquerade rule at the top of the internal chain: all traffic, or from outside the pods. */
function writeInternalMasquerade(w: RuleWriter, ctx: ServiceRuleContext, plan: PortPlan): void {
  if (!plan.hasInternal) return;
  const { svc, port, S, proto, internalChain } = plan;
  const base: Match[] = [c(`${S} cluster IP`), proto, dst(svc.clusterIP), dport(port.port)];
  if (ctx.cluster.kubeProxy.masqueradeAll)
    w.add('nat', internalChain, base, jump('KUBE-MARK-MASQ'));
  else if (ctx.localCIDR)
    w.add(
      'nat',
      internalChain,
      [...base, { kind: 'src', cidr: ctx.localCIDR, not: true }],
      jump('KUBE-MARK-MASQ'),
    );
}

/**
 * KUBE-EXT-: masquerade external traffic under `Cluster`; under `Local` send pod and
 * node-local traffic to the cluster-wide chain (masquerading the latter), then jump to the
 * external policy chain.
 */
function writeExtChain(w: RuleWriter, ctx: ServiceRuleContext, plan: PortPlan): void {
  if (!plan.usesExtChain) return;
  const { svc, S, names } = plan;
  const extChain = names.ext;
  w.chain('nat', extChain);
  if (svc.externalTrafficPolicy !== 'Local') {
    w.add(
      'nat',
      extChain,
      [c(`masquerade traffic for ${S} external destinations`)],
      jump('KUBE-MARK-MASQ'),
    );
  } else {
    if (ctx.localCIDR)
      w.add(
        'nat',
        extChain,
        [
          c(`pod traffic for ${S} external destinations`),
          { kind: 'src', cidr: ctx.localCIDR, not: false },
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
  if (plan.hasExternal) w.add('nat', extChain, [], jump(plan.externalPolicyChain));
}

/**
 * KUBE-FW-: `loadBalancerSourceRanges` let in (and the LB IPs themselves when a range holds
 * the node's address); anything else falls through to KUBE-PROXY-FIREWALL's drop.
 */
function writeFirewallChain(w: RuleWriter, ctx: ServiceRuleContext, plan: PortPlan): void {
  if (!plan.usesFW) return;
  const { svc, S, names, lbVIPs } = plan;
  w.chain('nat', names.fw);
  let allowFromNode = false;
  for (const cidr of svc.loadBalancerSourceRanges) {
    w.add(
      'nat',
      names.fw,
      [c(`${S} loadbalancer IP`), { kind: 'src', cidr, not: false }],
      jump(names.ext),
    );
    if (cidrContains(cidr, ctx.node.internalIP)) allowFromNode = true;
  }
  if (allowFromNode)
    for (const lbip of lbVIPs)
      w.add(
        'nat',
        names.fw,
        [c(`${S} loadbalancer IP`), { kind: 'src', cidr: lbip, not: false }],
        jump(names.ext),
      );
  w.add('nat', names.fw, [c(`other traffic to ${S} will be dropped by KUBE-PROXY-FIREWALL`)], {
    kind: 'none',
  });
}

/**
 * The load-balancing chains KUBE-SVC- and KUBE-SVL- (session-affinity checks, then the
 * `statistic` cascade to the KUBE-SEP- chains), and the KUBE-SEP- chains themselves. The
 * cascades and the KUBE-SEP- chains are the same on every node whose lists are the same: the
 * writer reuses them (RuleWriter.addRun, sharedChain).
 */
function writeLoadBalancing(w: RuleWriter, ctx: ServiceRuleContext, plan: PortPlan): void {
  const { svc, S, names, eps } = plan;
  // appendServiceCommentLocked: the per-endpoint comments go in large clusters.
  const epComment = (text: string): Match[] => (ctx.largeClusterMode ? [] : [c(text)]);
  const affinity = svc.sessionAffinity === 'ClientIP';
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
  if (plan.usesClusterChain) writeLB(names.svc, eps.cluster, eps.clusterRun);
  if (plan.usesLocalChain) writeLB(names.svl, eps.local, eps.localRun);

  w.adoptSorted('nat', eps.sepChains);
}

/**
 * The per-service-port part of `syncProxyRules` (proxier.go), in the order it writes:
 * ClusterIP, externalIPs and load-balancer IPs in KUBE-SERVICES (or filter REJECT/DROP
 * rules when there are no usable endpoints), NodePort and healthCheckNodePort rules, then
 * the KUBE-EXT-, KUBE-FW-, KUBE-SVC-/KUBE-SVL- and KUBE-SEP- chains.
 */
export function writeServiceRules(w: RuleWriter, ctx: ServiceRuleContext, svc: ServiceModel): void {
  // ipMode Proxy ingress IPs are skipped (servicechangetracker.go, proxyutil.IsVIPMode).
  const lbVIPs = svc.ingress.filter((i) => i.ipMode === 'VIP').map((i) => i.ip);
  for (const port of svc.ports) {
    const plan = portPlan(ctx, svc, port, lbVIPs);
    writeServiceAddresses(w, plan);
    writeNodePorts(w, ctx, plan);
    writeInternalMasquerade(w, ctx, plan);
    writeExtChain(w, ctx, plan);
    writeFirewallChain(w, ctx, plan);
    writeLoadBalancing(w, ctx, plan);
  }
}
