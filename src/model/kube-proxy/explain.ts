/**
 * One plain sentence for a line of kube-proxy's rules, in any mode — what the rules view
 * shows beside a rule on hover or focus. The sentences describe what kube-proxy means the
 * rule to do (from the comments and structure in pkg/proxy/{iptables,nftables,ipvs}/proxier.go),
 * filled in with the line's own addresses and ports.
 */
import type { ProxyMode } from './types';

type Rule = [RegExp, (m: RegExpExecArray) => string];

const CHAINS: Record<string, string> = {
  'KUBE-SERVICES': "kube-proxy's entry point: one rule per Service address",
  'KUBE-NODEPORTS': 'one rule per NodePort, reached for packets to the node’s own addresses',
  'KUBE-NODE-PORT': 'NodePort handling (IPVS mode)',
  'KUBE-EXTERNAL-SERVICES':
    'filter rules that drop or reject external traffic with no usable endpoint',
  'KUBE-POSTROUTING': 'masquerades packets marked 0x4000 on their way out',
  'KUBE-MARK-MASQ': 'sets the 0x4000 mark: "masquerade this packet"',
  'KUBE-FORWARD': 'lets marked and established Service traffic be forwarded',
  'KUBE-PROXY-FIREWALL': 'drops traffic outside loadBalancerSourceRanges',
  'KUBE-FIREWALL': 'blocks packets to 127.0.0.0/8 that come from outside the node',
  'KUBE-PROXY-CANARY': 'an empty chain kube-proxy watches to notice if iptables was flushed',
  'KUBE-LOAD-BALANCER': 'load-balancer IP handling (IPVS mode)',
  'KUBE-IPVS-FILTER': 'rejects new connections to Service IPs on ports that are not Services',
  'KUBE-IPVS-OUT-FILTER': 'the same check for packets the node sends',
  'KUBE-SOURCE-RANGES-FIREWALL': 'drops traffic outside loadBalancerSourceRanges (IPVS mode)',
};

const IPTABLES: Rule[] = [
  [/^\*(nat|filter)$/, (m) => `Start of the ${m[1]} table.`],
  [/^COMMIT$/, () => 'End of the table.'],
  [
    /^:(INPUT|OUTPUT|FORWARD|PREROUTING|POSTROUTING) ACCEPT/,
    (m) => `The kernel's built-in ${m[1]} chain.`,
  ],
  [/^:KUBE-SVC-/, () => 'Declares a Service port’s chain: it picks among all ready endpoints.'],
  [
    /^:KUBE-SVL-/,
    () => 'Declares a Service port’s Local chain: it picks among this node’s endpoints only.',
  ],
  [
    /^:KUBE-EXT-/,
    () =>
      'Declares a Service port’s external chain: NodePort, load-balancer and externalIP traffic.',
  ],
  [/^:KUBE-SEP-/, () => 'Declares one endpoint’s chain: it DNATs to that pod.'],
  [/^:KUBE-FW-/, () => 'Declares a Service port’s loadBalancerSourceRanges chain.'],
  [
    /^:([\w-]+) - /,
    (m) => `Declares ${m[1]}${CHAINS[m[1] ?? ''] ? `: ${CHAINS[m[1] ?? '']}` : ''}.`,
  ],
  [
    /--comment "kubernetes service portals" -j KUBE-SERVICES/,
    () => 'Every packet is checked against kube-proxy’s Service rules.',
  ],
  [
    /--comment "kubernetes postrouting rules"/,
    () => 'Every outgoing packet passes KUBE-POSTROUTING (masquerade if marked).',
  ],
  [
    /--comment "kubernetes load balancer firewall"/,
    () => 'New connections are checked against loadBalancerSourceRanges.',
  ],
  [
    /--comment "kubernetes health check service ports"/,
    () => 'Lets health-check node ports through to kube-proxy.',
  ],
  [
    /--comment "kubernetes externally-visible service portals"/,
    () => 'New connections are checked for Services with no usable endpoint.',
  ],
  [
    /--comment "kubernetes forwarding rules" -j KUBE-FORWARD/,
    () => 'Forwarded packets pass KUBE-FORWARD.',
  ],
  [
    /^-A (INPUT|OUTPUT) -j KUBE-FIREWALL/,
    () => 'kubelet’s guard against spoofed localhost traffic.',
  ],
  [
    /-d (\S+)\/32 .*--comment "(\S+) cluster IP" -m \w+ --dport (\d+) -j KUBE-(SVC|SVL)/,
    (m) => `Packets to the ClusterIP ${m[1]}:${m[3]} go to ${m[2]}’s chain.`,
  ],
  [
    /! -s (\S+) -d (\S+)\/32 .*cluster IP.* -j KUBE-MARK-MASQ/,
    (m) =>
      `Packets to the ClusterIP ${m[2]} from outside the pod network (${m[1]}) are marked for SNAT.`,
  ],
  [
    /-d (\S+)\/32 .*cluster IP.* -j KUBE-MARK-MASQ/,
    (m) => `masqueradeAll: every packet to the ClusterIP ${m[1]} is marked for SNAT.`,
  ],
  [
    /-d (\S+)\/32 .*loadbalancer IP" -m \w+ --dport (\d+) -j KUBE-(EXT|FW)/,
    (m) =>
      `Packets still addressed to the load-balancer IP ${m[1]}:${m[2]} are handled here (ipMode VIP).`,
  ],
  [
    /-d (\S+)\/32 .*external IP" -m \w+ --dport (\d+)/,
    (m) => `Packets to the externalIP ${m[1]}:${m[2]} are handled as external traffic.`,
  ],
  [
    /-d 127\.0\.0\.0\/8 .*--dport (\d+) -m nfacct/,
    (m) => `NodePort ${m[1]} on localhost too (iptables.localhostNodePorts), counted by nfacct.`,
  ],
  [
    /^-A KUBE-NODEPORTS .*--dport (\d+) -j KUBE-EXT/,
    (m) =>
      `Packets to any of this node’s addresses on port ${m[1]} go to the Service’s external chain.`,
  ],
  [
    /health check node port" .*--dport (\d+) -j ACCEPT/,
    (m) => `Accepts the load balancer’s health checks on healthCheckNodePort ${m[1]}.`,
  ],
  [
    /this must be the last rule in this chain" .*-d (\S+)\/32/,
    (m) => `Packets to ${m[1]} are checked against the NodePorts (last, after every Service IP).`,
  ],
  [
    /this must be the last rule in this chain"/,
    () =>
      'Packets to any local address are checked against the NodePorts (last, after every Service IP).',
  ],
  [
    /"masquerade traffic for (\S+) external destinations"/,
    () =>
      'externalTrafficPolicy Cluster: mark external traffic for SNAT, the endpoint may be on another node.',
  ],
  [
    /"pod traffic for \S+ external destinations"/,
    () => 'Pods reaching the Service’s external address are sent to all endpoints, unmasqueraded.',
  ],
  [/"masquerade LOCAL traffic/, () => 'Traffic from the node itself is marked for SNAT.'],
  [/"route LOCAL traffic/, () => 'Traffic from the node itself goes to all endpoints.'],
  [/^-A KUBE-EXT-\S+ -j KUBE-SVC-/, () => 'Then choose among all ready endpoints (Cluster).'],
  [/^-A KUBE-EXT-\S+ -j KUBE-SVL-/, () => 'Then choose among this node’s endpoints only (Local).'],
  [
    /-> (\S+)" -m recent --rcheck --seconds (\d+)/,
    (m) => `sessionAffinity ClientIP: a client seen in the last ${m[2]} s goes back to ${m[1]}.`,
  ],
  [
    /-> (\S+)" -m statistic --mode random --probability (\S+)/,
    (m) => `With probability ${Number(m[2]).toFixed(4)} of what is left, use ${m[1]}.`,
  ],
  [/-> (\S+)" -j KUBE-SEP/, (m) => `Otherwise (or as the only endpoint), use ${m[1]}.`],
  [
    /^-A KUBE-SEP-\S+ -s (\S+)\/32 .*-j KUBE-MARK-MASQ/,
    (m) => `Hairpin: if the pod ${m[1]} reaches itself through the Service, masquerade it.`,
  ],
  [/-j DNAT --to-destination (\S+)/, (m) => `DNAT: rewrite the destination to the pod ${m[1]}.`],
  [
    /^-A KUBE-FW-\S+ .*-s (\S+) -j KUBE-EXT/,
    (m) => `Sources in ${m[1]} (loadBalancerSourceRanges) may reach the Service.`,
  ],
  [
    /"other traffic to \S+ will be dropped/,
    () => 'Everything else falls through undNATed and is dropped by KUBE-PROXY-FIREWALL.',
  ],
  [
    /traffic not accepted by KUBE-FW/,
    () => 'Drops load-balancer traffic that KUBE-FW did not accept.',
  ],
  [
    /has no local endpoints" .*--dport (\d+) -j DROP/,
    (m) =>
      `externalTrafficPolicy Local and no endpoint on this node: drop external traffic to port ${m[1]}.`,
  ],
  [
    /has no endpoints" .*--dport (\d+) -j REJECT/,
    (m) =>
      `No ready endpoint anywhere: reject connections to port ${m[1]} (ICMP port unreachable).`,
  ],
  [
    /-j MARK --set-xmark 0x(\w+)\/0x\1$/,
    (m) => `Set the 0x${m[1]} mark: masquerade this packet on its way out.`,
  ],
  [/-m mark ! --mark (\S+) -j RETURN/, () => 'Packets without the mark are left alone.'],
  [
    /-j MARK --set-xmark 0x\w+\/0x0$/,
    () => 'Clear the mark so the packet is not masqueraded twice.',
  ],
  [
    /-j MASQUERADE/,
    () => 'SNAT: the source becomes the outgoing interface’s address, with a random port.',
  ],
  [
    /--ctstate INVALID/,
    () => 'Drops packets conntrack marks INVALID (unless nf_conntrack_tcp_be_liberal is set).',
  ],
  [
    /"kubernetes forwarding rules" -m mark/,
    () => 'Forwards marked Service traffic even if the FORWARD policy is DROP.',
  ],
  [
    /"kubernetes forwarding conntrack rule"/,
    () => 'Forwards the rest of connections already accepted.',
  ],
  [
    /"block incoming localnet connections"/,
    () => 'Drops packets to 127.0.0.0/8 from other hosts (route_localnet makes them routable).',
  ],
  // IPVS-mode iptables rules
  [
    /--match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ/,
    () => 'ClusterIP traffic from outside the pod network is marked for SNAT.',
  ],
  // writeIptablesRules' externalIPRules (ipvs proxier.go), for KUBE-EXTERNAL-IP and -LOCAL.
  [
    /--match-set KUBE-EXTERNAL-IP dst,dst -j KUBE-MARK-MASQ/,
    () => 'externalTrafficPolicy Cluster: traffic to an external IP is marked for SNAT.',
  ],
  [
    /--match-set (KUBE-EXTERNAL-IP(?:-LOCAL)?) dst,dst -m physdev ! --physdev-is-in -m addrtype ! --src-type LOCAL -j ACCEPT/,
    (m) =>
      `Traffic to an address in ${m[1]} from off the machine (not from a pod's bridge, not from the node) is accepted here; IPVS takes it${m[1] === 'KUBE-EXTERNAL-IP-LOCAL' ? ', unmarked (externalTrafficPolicy Local)' : ''}.`,
  ],
  [
    /--match-set (KUBE-EXTERNAL-IP(?:-LOCAL)?) dst,dst -m addrtype --dst-type LOCAL -j ACCEPT/,
    (m) =>
      `An address in ${m[1]} that is also one of the node's own is accepted here, so it stays local; IPVS takes it.`,
  ],
  [
    /--match-set (KUBE-\S+) dst,dst -j ACCEPT/,
    (m) => `Packets to addresses in ${m[1]} are accepted here; IPVS takes them.`,
  ],
  [
    /--match-set KUBE-LOAD-BALANCER dst,dst -j KUBE-LOAD-BALANCER/,
    () => 'Load-balancer IP traffic goes to KUBE-LOAD-BALANCER.',
  ],
  [
    /--match-set KUBE-LOAD-BALANCER-LOCAL dst,dst -j RETURN/,
    () => 'externalTrafficPolicy Local: load-balancer traffic is not masqueraded.',
  ],
  [
    /^-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ/,
    () => 'Other load-balancer traffic is marked for SNAT.',
  ],
  [
    /--match-set KUBE-NODE-PORT-LOCAL-\w+ dst -j RETURN/,
    () => 'externalTrafficPolicy Local: NodePort traffic is not masqueraded.',
  ],
  [
    /--match-set KUBE-NODE-PORT-\w+ dst -j KUBE-MARK-MASQ/,
    () => 'NodePort traffic is marked for SNAT.',
  ],
  [
    /--match-set KUBE-HEALTH-CHECK-NODE-PORT dst -j (ACCEPT|RETURN)/,
    () => 'Lets health checks reach healthCheckNodePort.',
  ],
  [
    /--match-set KUBE-LOOP-BACK/,
    () => 'Hairpin: a pod reaching itself through a Service is masqueraded.',
  ],
  [
    /--match-set KUBE-IPVS-IPS dst -j REJECT/,
    () => 'Rejects new connections to a Service IP on a port that is not a Service.',
  ],
  [
    /--match-set (KUBE-\S+) dst,dst -j RETURN/,
    (m) => `Addresses in ${m[1]} are Services: let them through.`,
  ],
  [/^-A KUBE-SERVICES -s 127\.0\.0\.0\/8 -j RETURN/, () => 'Localhost traffic is not touched.'],
  [
    /^-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT/,
    () => 'Packets to the node’s own addresses are checked against the NodePorts.',
  ],
  [
    /^-A KUBE-SOURCE-RANGES-FIREWALL -j DROP/,
    () => 'Drops what loadBalancerSourceRanges did not allow.',
  ],
  [
    /^-A (\S+) .*-j (KUBE-[\w-]+)$/,
    (m) => `Goes on to ${m[2]}${CHAINS[m[2] ?? ''] ? `: ${CHAINS[m[2] ?? '']}` : ''}.`,
  ],
];

const NFTABLES: Rule[] = [
  [/^table ip kube-proxy/, () => 'kube-proxy’s own table: nothing else writes here.'],
  [/^(set|map) (\S+) \{/, (m) => `The ${m[1]} ${m[2]}.`],
  [/^comment "(.+)"$/, (m) => `${m[1]}.`],
  [
    /^type (\w+) hook (\w+) priority (.+); policy accept;/,
    (m) => `A base chain: the kernel runs it in the ${m[2]} hook (${m[1]}, priority ${m[3]}).`,
  ],
  [/^type .* : verdict$/, () => 'A verdict map: the key looked up, the action taken.'],
  [/^type /, () => 'What the set holds.'],
  [
    /^elements = \{ (\S+) \. (\w+) \. (\d+) : goto (external|service)-/,
    (m) => `${m[1]}:${m[3]}/${m[2]} is a Service address: go to its ${m[4]} chain.`,
  ],
  [
    /^elements = \{ (\w+) \. (\d+) : goto external-/,
    (m) => `NodePort ${m[2]}/${m[1]} goes to the Service’s external chain.`,
  ],
  [/^elements = /, () => 'The members.'],
  [
    /^(\S+) \. (\w+) \. (\d+) : goto (external|service)-/,
    (m) => `${m[1]}:${m[3]}/${m[2]} is a Service address: go to its ${m[4]} chain.`,
  ],
  [/: goto reject-chain/, () => 'No usable endpoint: reject.'],
  [/: drop/, () => 'No local endpoint under externalTrafficPolicy Local: drop.'],
  [/^chain (filter|nat)-(\w+)/, (m) => `The ${m[1]} base chain for ${m[2]}.`],
  [/^chain services/, () => 'Dispatches Service addresses and NodePorts through verdict maps.'],
  [/^chain service-\S+/, () => 'A Service port’s chain: it picks among all ready endpoints.'],
  [/^chain local-\S+/, () => 'A Service port’s Local chain: this node’s endpoints only.'],
  [
    /^chain external-\S+/,
    () => 'A Service port’s external chain: NodePort, load-balancer and externalIP traffic.',
  ],
  [
    /^chain endpoint-\S+__(\S+)\/(\d+)/,
    (m) => `The chain for endpoint ${m[1]}:${m[2]}: it DNATs there.`,
  ],
  [/^chain firewall-\S+/, () => 'A Service port’s loadBalancerSourceRanges check.'],
  [/^chain (\S+) \{/, (m) => `The chain ${m[1]}.`],
  [/^\}$/, () => 'End of the block.'],
  [/^jump services/, () => 'Every packet is checked against kube-proxy’s Service addresses.'],
  [/^jump masquerading/, () => 'Every outgoing packet passes the masquerading chain.'],
  [/^ct state new jump (\S+)/, (m) => `New connections pass ${m[1]}.`],
  [
    /vmap @service-ips/,
    () => 'Look the destination address, protocol and port up among the Service addresses.',
  ],
  [
    /vmap @service-nodeports/,
    () => 'For the node’s NodePort addresses, look the protocol and port up among the NodePorts.',
  ],
  [/vmap @no-endpoint-services/, () => 'Drop or reject Service addresses with no usable endpoint.'],
  [/vmap @no-endpoint-nodeports/, () => 'Drop or reject NodePorts with no usable endpoint.'],
  [/vmap @firewall-ips/, () => 'Check load-balancer traffic against loadBalancerSourceRanges.'],
  // The mark is 1 << nftables.masqueradeBit (0x4000 by default), as the rule prints it.
  [
    /^meta mark & 0x0*(\w+) == 0x0+ return/,
    (m) => `Packets without the 0x${m[1]} mark are left alone.`,
  ],
  [/^meta mark set meta mark \^/, () => 'Clear the mark so the packet is not masqueraded twice.'],
  [
    /^meta mark set meta mark \| 0x0*(\w+)/,
    (m) => `Set the 0x${m[1]} mark: masquerade this packet on its way out.`,
  ],
  [
    /^masquerade/,
    () => 'SNAT: the source becomes the outgoing interface’s address, with a random port.',
  ],
  [
    /reject comment "Reject traffic to invalid ports/,
    () => 'A ClusterIP on a port that is not a Service: reject.',
  ],
  [
    /drop comment "Drop traffic to unallocated ClusterIPs"/,
    () => 'An address in the Service range that is no Service: drop.',
  ],
  [/^reject$/, () => 'Reject (ICMP port unreachable).'],
  [
    /ip saddr != (\S+) jump mark-for-masquerade/,
    (m) => `ClusterIP traffic from outside the pod network (${m[1]}) is marked for SNAT.`,
  ],
  [
    /^ip saddr (\S+) jump mark-for-masquerade/,
    (m) => `Hairpin: if the pod ${m[1]} reaches itself through the Service, masquerade it.`,
  ],
  [
    /numgen random mod (\d+) vmap/,
    (m) => `Pick one of the ${m[1]} endpoint chains at random, each equally likely.`,
  ],
  [/dnat to (\S+)/, (m) => `DNAT: rewrite the destination to the pod ${m[1]}.`],
  [
    /short-circuit pod traffic/,
    () => 'Pods reaching the external address go to all endpoints, unmasqueraded.',
  ],
  [/masquerade local traffic/, () => 'Traffic from the node itself is marked for SNAT.'],
  [/short-circuit local traffic/, () => 'Traffic from the node itself goes to all endpoints.'],
  [/^goto local-/, () => 'External traffic: only this node’s endpoints (Local).'],
  [
    /^jump mark-for-masquerade$/,
    () => 'externalTrafficPolicy Cluster: mark external traffic for SNAT.',
  ],
  [/^goto service-/, () => 'Then choose among all ready endpoints.'],
  [
    /ip saddr @affinity-/,
    () => 'sessionAffinity ClientIP: a client seen recently goes back to the same endpoint.',
  ],
  [/update @affinity-/, () => 'Remember this client for session affinity.'],
  [/ip saddr != \{?[^}]*\}? drop/, () => 'Sources outside loadBalancerSourceRanges are dropped.'],
];

const IPVS: Rule[] = [
  [/^# (.+)$/, (m) => `What ${m[1]} prints.`],
  [/^IP Virtual Server version/, () => 'The kernel’s IPVS table.'],
  [/^Prot LocalAddress/, () => 'Virtual servers: address:port and scheduler.'],
  [/^-> RemoteAddress/, () => 'Real servers: the endpoints behind each virtual server.'],
  [
    /^(TCP|UDP|SCTP)\s+(\S+)\s+(\w+)(?:\s+persistent (\d+))?/,
    (m) =>
      `A virtual server for ${m[2]}: the ${m[3]} scheduler spreads new connections over its real servers${m[4] ? `, the same client sticks for ${m[4]} s (sessionAffinity ClientIP)` : ''}.`,
  ],
  [
    /^-> (\S+)\s+Masq/,
    (m) => `Real server ${m[1]}: forwarded by NAT (Masq), i.e. DNAT to the pod.`,
  ],
  [/^Name: (\S+)/, (m) => `The ipset ${m[1]}.`],
  [/^Type: /, () => 'What the set holds.'],
  [/^Header: /, () => 'Set parameters.'],
  [/^Members:/, () => 'The members:'],
  [
    /^kube-ipvs0:/,
    () => 'A dummy interface: Service IPs sit on it so the node accepts packets to them.',
  ],
  [
    /^inet (\S+) scope global kube-ipvs0/,
    (m) => `${m[1]} is a local address of the node, so IPVS sees its packets.`,
  ],
  [/^valid_lft/, () => 'Address lifetime.'],
  [/^[\d.]+,\w+:\d+,[\d.]+$/, () => 'A hairpin entry: pod, port, the same pod.'],
  [/^([\d.]+),(\w+):(\d+)$/, (m) => `${m[1]}:${m[3]}/${m[2]}.`],
  [/^\d+$/, (m) => `Port ${m[0]}.`],
  [/^[\d.]+$/, (m) => `${m[0]}.`],
];

/**
 * A one-sentence explanation of a rule-dump line, or undefined for blank lines and lines
 * the explainer does not know.
 */
export function explainLine(mode: ProxyMode, text: string): string | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const tables =
    mode === 'iptables' ? [IPTABLES] : mode === 'nftables' ? [NFTABLES] : [IPVS, IPTABLES];
  for (const table of tables)
    for (const [re, say] of table) {
      const m = re.exec(t);
      if (m) return say(m);
    }
  return undefined;
}
