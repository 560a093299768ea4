/**
 * `trace(cluster, options)`: one TCP connection (its SYN, then the SYN-ACK back) from a
 * client through the cloud load balancer and kube-proxy's rules to a pod, step by step.
 *
 * The kube-proxy steps come from walking the node's generated rules
 * (the mode's walker, see `kube-proxy/types.ts`); the balancer's steps from its health checks and delivery mode;
 * the reply from the conntrack entries the request created, undone hop by hop.
 */
import type { Cluster, ClusterNode, ServiceModel } from '../scenario/cluster';
import { findNode, ingressHostname, podByIP } from '../scenario/cluster';
import { cidrContains } from '../net/ip';
import { serviceExternalIP } from '../k8s/kubectlColumns';
import type { Choices, DialTarget } from '../scenario/scene';
import type { EndpointChooser, ModeRuleset, Origin } from '../kube-proxy/types';
import { proxyMode } from '../kube-proxy/modes';
import { balancerStep } from './balancerStep';
import { isMetalLB, replyRoute } from '../cloud/implementation';
import { metallbStep } from './metallbStep';
import { createRng, pickWeighted, randomInt } from '../random';
import type { Rng } from '../random';
import { StepList } from './builder';
import { newEntry } from './conntrack';
import type { Hop } from './reply';
import { replyPath, replySentence } from './reply';
import { nodeSteps } from './nodeSteps';
import type { ConntrackEntry, Outcome, Packet, Place, Trace } from './types';

/** What to trace. */
export interface TraceOptions {
  /** `namespace/name` of the Service; default: the first LoadBalancer Service. */
  service?: string;
  /** `spec.ports[].name` of the port to dial; default: the first port. */
  port?: string;
  /** Name of the Client object that opens the connection. */
  client: string;
  dial: DialTarget;
  choices: Choices;
  seed: number;
}

const MAX_HOPS = 8;

/** Picks the Service the trace is about. @throws {Error} when the cluster has no Service. */
export function pickService(cluster: Cluster, key?: string): ServiceModel {
  const svc = key
    ? cluster.services.find((s) => `${s.namespace}/${s.name}` === key)
    : (cluster.services.find((s) => s.type === 'LoadBalancer') ?? cluster.services[0]);
  if (!svc) throw new Error(key ? `no Service "${key}"` : 'the scenario has no Service');
  return svc;
}

/** Whether `ip` belongs to the pod network (the clusterCIDR, else any node's podCIDR). */
function inPodNetwork(cluster: Cluster, ip: string): boolean {
  const cidr = cluster.kubeProxy.clusterCIDR;
  if (cidr) return cidrContains(cidr, ip);
  return cluster.nodes.some((n) => n.podCIDR !== '' && cidrContains(n.podCIDR, ip));
}

/**
 * The externalIP a client dials and the node the network delivers it to. Kubernetes neither
 * allocates nor routes `spec.externalIPs` ("the responsibility of the cluster
 * administrator", Service docs): the trace takes the first one and assumes the network's
 * route for it points at `nodeName`.
 * @throws {Error} when `nodeName` names no node.
 */
function externalIPRoute(
  cluster: Cluster,
  svc: ServiceModel,
  nodeName: string,
): { ip: string } | { outcome: Outcome } {
  if (!findNode(cluster, nodeName)) throw new Error(`no node "${nodeName}"`);
  const ip = svc.externalIPs[0];
  if (ip === undefined)
    return {
      outcome: {
        kind: 'no-address',
        reason: 'the Service has no spec.externalIPs',
        summary: 'No external IP to dial.',
      },
    };
  return { ip };
}

/** Picks an endpoint: the pinned one when it is among the options, else a seeded draw. */
function chooser(rng: Rng, pinned: string | undefined): EndpointChooser {
  return (options) => {
    const pin = pinned ? options.findIndex((o) => o.endpoint === pinned) : -1;
    if (pin >= 0) return pin;
    return pickWeighted(
      rng,
      options.map((o) => o.probability),
    );
  };
}

/**
 * Traces one connection.
 * @throws {Error} when `options.client` names no Client, or the dial target names no node.
 */
export function trace(
  cluster: Cluster,
  options: TraceOptions,
  rules?: Record<string, ModeRuleset>,
): Trace {
  // The traced port goes first in the Service's view, so every step (the balancer, the
  // narration, the decision) speaks of it; the node's rules still hold every port.
  const picked = pickService(cluster, options.service);
  const chosenPort = picked.ports.find((p) => p.name === options.port) ?? picked.ports[0];
  const svc: ServiceModel = chosenPort
    ? { ...picked, ports: [chosenPort, ...picked.ports.filter((p) => p !== chosenPort)] }
    : picked;
  const port = svc.ports[0];
  const client = cluster.clients.find((c) => c.name === options.client);
  if (!client) throw new Error(`no Client "${options.client}"`);
  const lb = cluster.loadBalancers.find((l) => l.service === `${svc.namespace}/${svc.name}`);
  const impl = proxyMode(cluster.kubeProxy.mode);
  const rulesOf = (n: string) => (rules ??= {})[n] ?? (rules[n] = impl.generate(cluster, n));
  const rngLB = createRng(options.seed * 4 + 1);
  const rngEP = createRng(options.seed * 4 + 2);
  const rngPort = createRng(options.seed * 4 + 3);
  const steps = new StepList();
  const conntrack: ConntrackEntry[] = [];
  const done = (outcome: Outcome): Trace => ({ steps: steps.steps, outcome, conntrack });
  if (!port)
    return done({
      kind: 'no-address',
      reason: 'the Service has no ports',
      summary: 'Nothing to dial.',
    });

  // Where the client sends its SYN.
  let dst: string;
  let dport: number;
  const ingress = svc.ingress[0];
  // An AWS-style balancer publishes a DNS name and no IP: the client dials what the name resolves to.
  const hostname = ingressHostname(svc);
  const viaName = options.dial.kind === 'LoadBalancer' && !ingress && hostname !== undefined;
  /** The balancer's address as the client's packets carry it (undefined: nothing to reach it by). */
  const lbAddress = ingress ? ingress.ip : hostname !== undefined ? lb?.address : undefined;
  switch (options.dial.kind) {
    case 'LoadBalancer':
      if (svc.type !== 'LoadBalancer')
        return done({
          kind: 'no-address',
          reason: `the Service is type ${svc.type}: it has no load-balancer address (kubectl shows EXTERNAL-IP ${serviceExternalIP(svc)})`,
          summary: `No load balancer to dial: EXTERNAL-IP ${serviceExternalIP(svc)}.`,
        });
      if (ingress) dst = ingress.ip;
      else if (hostname !== undefined) {
        // The client resolves the name; the answer is the balancer's own address.
        if (!lb?.address)
          return done({
            kind: 'no-address',
            reason: `status.loadBalancer.ingress publishes only the hostname ${hostname}, and the scenario gives no address for it to resolve to (a CloudLoadBalancer's spec.address)`,
            summary: `${hostname} resolves to nothing the model knows.`,
          });
        dst = lb.address;
      } else
        return done({
          kind: 'no-address',
          reason: `status.loadBalancer is empty: kubectl shows EXTERNAL-IP ${serviceExternalIP(svc)} until the cloud-controller-manager publishes an address`,
          summary: `No address to dial yet: EXTERNAL-IP ${serviceExternalIP(svc)}.`,
        });
      dport = port.port;
      break;
    case 'NodePort': {
      const node = findNode(cluster, options.dial.nodeName);
      if (!node) throw new Error(`no node "${options.dial.nodeName}"`);
      if (port.nodePort === 0)
        return done({
          kind: 'no-address',
          reason: 'the Service has no nodePort',
          summary: 'No NodePort to dial.',
        });
      dst = node.internalIP;
      dport = port.nodePort;
      break;
    }
    case 'ClusterIP':
      dst = svc.clusterIP;
      dport = port.port;
      break;
    case 'ExternalIP': {
      const routed = externalIPRoute(cluster, svc, options.dial.nodeName);
      if ('outcome' in routed) return done(routed.outcome);
      dst = routed.ip;
      dport = port.port;
      break;
    }
  }

  let pkt: Packet = {
    protocol: port.protocol,
    flags: 'SYN',
    src: client.address,
    sport: client.sourcePort,
    dst,
    dport,
    mark: 0,
  };
  const hops: Hop[] = [];
  let next: { place: Place; origin: Origin } | undefined;
  const home = client.nodeName ? findNode(cluster, client.nodeName) : undefined;
  const dialText = `${dst}:${dport}`;
  const clientText =
    client.location === 'Internet'
      ? 'A client on the internet'
      : client.location === 'Node'
        ? `A process on ${home?.name} (host network)`
        : `A pod on ${home?.name}`;

  if (home) {
    next = {
      place: `node:${home.name}`,
      origin: client.location === 'Node' ? 'local-host' : 'local-pod',
    };
  } else if (lbAddress && dst === lbAddress) {
    next = { place: 'lb', origin: 'network' };
  } else if (options.dial.kind === 'ExternalIP') {
    // A node that holds the address itself gets it (ARP); otherwise the administrator's route.
    const owner = cluster.nodes.find((n) => n.addresses.includes(dst));
    next = { place: `node:${owner?.name ?? options.dial.nodeName}`, origin: 'network' };
  } else {
    const owner = cluster.nodes.find((n) => n.addresses.includes(dst));
    if (!owner)
      return done({
        kind: 'timed-out',
        at: 'client',
        reason: `${dst} is not reachable from the internet (a ClusterIP exists only inside the cluster)`,
        summary: 'The SYN goes nowhere; the client times out.',
      });
    next = { place: `node:${owner.name}`, origin: 'network' };
  }
  const routedTo = findNode(cluster, next.place.slice('node:'.length));
  steps.add({
    direction: 'request',
    at: 'client',
    from: 'client',
    to: next.place,
    before: pkt,
    after: pkt,
    transform: 'none',
    ...(options.dial.kind === 'ExternalIP' && !home && routedTo
      ? {
          rule: {
            kind: 'routing' as const,
            text: routedTo.addresses.includes(dst)
              ? `${dst} is an address of ${routedTo.name}`
              : `${dst} via ${routedTo.internalIP} (the network's route for the externalIP, set by the cluster administrator)`,
          },
        }
      : {}),
    narration: viaName
      ? {
          title: `The client resolves ${hostname} and dials ${dialText}`,
          body: `${clientText} looks up ${hostname}, the name the cloud published in status.loadBalancer.ingress (kubectl shows it as EXTERNAL-IP). DNS answers ${dst}: the balancer's own address, not one kube-proxy knows — kube-proxy makes rules for ingress IPs only, and this Service has none. So no node will accept a packet still addressed to ${dst}: the balancer must deliver to a NodePort (${port.nodePort}), and keeping the load-balancer IP as the destination (LoadBalancerIP delivery, ipMode VIP) cannot work here. The first packet, a SYN from ${pkt.src}:${pkt.sport}, goes to ${dialText}.`,
        }
      : {
          title: `The client dials ${dialText}`,
          body: `${clientText} opens a TCP connection: its first packet, a SYN from ${pkt.src}:${pkt.sport}, is addressed to ${dialText}.`,
        },
  });

  let crossed = false;
  let snatted = false;
  let viaMetalLB = false;
  for (let i = 0; i < MAX_HOPS && next; i++) {
    const here: { place: Place; origin: Origin } = next;
    if (here.place === 'lb' && lb && isMetalLB(lb.implementation)) {
      // No balancer: the packet goes to the node that owns the address. The step that sent
      // it towards the address (the client's dial) ends at that node, not at a balancer.
      const m = metallbStep({ cluster, svc, lb, pkt, options, rngLB, rngPort });
      const sent = steps.last;
      if (sent?.to === 'lb') sent.to = 'outcome' in m ? sent.from : `node:${m.node.name}`;
      if ('outcome' in m) return done(m.outcome);
      steps.add(m.step);
      viaMetalLB = true;
      next = { place: `node:${m.node.name}`, origin: 'network' };
      continue;
    }
    if (here.place === 'lb') {
      const lbResult = balancerStep({ cluster, svc, lb, pkt, options, rngLB, rngPort });
      if ('outcome' in lbResult) return done(lbResult.outcome);
      const { after, node } = lbResult;
      steps.add(lbResult.step);
      const arrived = pkt;
      hops.push({ place: 'lb', arrived, left: after });
      pkt = after;
      next = { place: `node:${node.name}`, origin: 'network' };
      continue;
    }

    // A node.
    const nodeName = here.place.slice('node:'.length);
    const node = findNode(cluster, nodeName) as ClusterNode;
    if (!node.ready)
      return done({
        kind: 'timed-out',
        at: here.place,
        reason: `${node.name} is down: nothing on it answers, and the client's SYN retransmissions time out`,
        summary: `${node.name} is down: the connection times out.`,
      });
    const rs = rulesOf(node.name);
    const arrived = pkt;
    const proc = impl.process(rs, node, pkt, here.origin, chooser(rngEP, options.choices.endpoint));
    let left: Packet = { ...proc.packet, flags: pkt.flags };
    let snat: { ip: string; port: number; iface: string } | undefined;
    const destPod = podByIP(cluster, left.dst);
    if (proc.fate.kind === 'forward' && proc.fate.masquerade) {
      const toLocalPod = destPod?.nodeName === node.name;
      snat = {
        ip: toLocalPod ? node.bridgeIP : node.internalIP,
        // nf_nat_proto.c: --random-fully draws the source port from 1024–65535.
        port: randomInt(rngPort, 1024, 65535),
        iface: toLocalPod ? 'cni0, the bridge to its pods' : 'its interface towards the other node',
      };
      left = { ...left, src: snat.ip, sport: snat.port };
      snatted = true;
    }
    for (const d of nodeSteps(
      {
        cluster,
        svc,
        node,
        mode: impl.mode,
        arrived,
        ...(snat ? { snat } : {}),
        ...(options.choices.endpoint ? { pinnedEndpoint: options.choices.endpoint } : {}),
      },
      proc,
      pkt.flags,
    ))
      steps.add(d);
    if (proc.fate.kind === 'drop' || proc.fate.kind === 'reject')
      return done({
        kind: proc.fate.kind === 'drop' ? 'dropped' : 'rejected',
        at: here.place,
        reason: steps.last?.narration.body ?? '',
        rule: proc.fate.hit.text,
        summary: `${proc.fate.kind === 'drop' ? 'Dropped' : 'Rejected'} on ${node.name} by ${proc.fate.hit.chain}.`,
      });
    if (proc.fate.kind === 'local')
      return done({
        kind: 'rejected',
        at: here.place,
        reason: `nothing on ${node.name} listens on ${left.dst}:${left.dport}, so the kernel answers with a TCP RST`,
        summary: `Connection refused by ${node.name}.`,
      });
    left.mark = 0; // skb marks do not leave the node
    // Pod traffic leaving for an address outside the pod network (another node's IP, or the
    // LB IP when kube-proxy did not catch it) is masqueraded by the CNI plugin's own rule
    // (flannel's and Calico's default), not by kube-proxy.
    const cniMasq = here.origin === 'local-pod' && !destPod && !inPodNetwork(cluster, left.dst);
    if (cniMasq) left = { ...left, src: node.internalIP, sport: randomInt(rngPort, 1024, 65535) };
    const entry = newEntry(node.name, arrived, left);
    conntrack.push(entry);
    const last = steps.steps[steps.steps.length - 1];
    if (last) last.conntrack = entry;
    hops.push({ place: here.place, arrived, left, entry });
    pkt = left;

    // Where does it go next?
    if (destPod) {
      if (destPod.nodeName === node.name) {
        steps.add({
          direction: 'request',
          at: here.place,
          from: here.place,
          to: `pod:${destPod.namespace}/${destPod.name}`,
          before: pkt,
          after: pkt,
          transform: 'none',
          rule: {
            kind: 'routing',
            text: `${destPod.ip} dev cni0 (${node.podCIDR} is this node's pod subnet)`,
          },
          narration: {
            title: `Into the pod ${destPod.name}`,
            body: `${destPod.ip} is on ${node.name}'s own pod subnet, so the node hands the packet to the pod through its bridge. The application sees a connection from ${pkt.src}:${pkt.sport}.`,
          },
        });
        hops.push({ place: `pod:${destPod.namespace}/${destPod.name}`, arrived: pkt, left: pkt });
        const outcome: Outcome = {
          kind: 'delivered',
          pod: `${destPod.namespace}/${destPod.name}`,
          podIP: destPod.ip,
          node: node.name,
          sourceIPSeenByPod: pkt.src,
          clientIPPreserved: pkt.src === client.address,
          crossedNodes: crossed,
          snat: snatted,
          summary: `Delivered to ${destPod.name} (${destPod.ip}) on ${node.name}; it sees the connection coming from ${pkt.src}${pkt.src === client.address ? ', the client itself' : ''}.`,
        };
        // Where the reply goes: only a connection that came through the balancer (or MetalLB's
        // node) has a say; a client on a node, or one dialling a node, is answered as it dialled.
        // A hostname-only ingress has no ipMode (the API allows it only beside an ip): the
        // balancer behind the name delivers to the NodePort, as with VIP.
        const ipMode = ingress?.ipMode ?? 'VIP';
        const route =
          lb && lbAddress && (viaMetalLB || hops.some((h) => h.place === 'lb'))
            ? replyRoute(lb.implementation, ipMode)
            : undefined;
        const reply = replyPath(
          steps,
          hops,
          conntrack,
          destPod,
          client.location,
          (dst, place) => {
            const n = findNode(cluster, place.slice('node:'.length));
            return (
              !!n &&
              (n.addresses.includes(dst) || (n.podCIDR !== '' && cidrContains(n.podCIDR, dst)))
            );
          },
          route === 'direct' && lb ? lb.implementation : undefined,
        );
        if (!reply.established)
          return done({
            kind: 'timed-out',
            at: 'client',
            reason: reply.reason,
            summary: `The SYN reached ${destPod.name}, but the reply took another way back: the connection never opens.`,
          });
        if (route && lb) outcome.reply = replySentence(lb.implementation, ipMode, reply.answeredBy);
        return done(outcome);
      }
      const target = findNode(cluster, destPod.nodeName);
      if (!target)
        return done({
          kind: 'timed-out',
          at: here.place,
          reason: `no route to ${destPod.ip}`,
          summary: 'No route.',
        });
      steps.add({
        direction: 'request',
        at: 'network',
        from: here.place,
        to: `node:${target.name}`,
        before: pkt,
        after: pkt,
        transform: 'none',
        rule: {
          kind: 'routing',
          text: `${target.podCIDR} via ${target.internalIP} (the cluster network)`,
        },
        narration: {
          title: `A second hop: ${node.name} → ${target.name}`,
          body: `The chosen pod lives on ${target.name}, so ${node.name} sends the packet across the cluster network.${
            client.location === 'Internet' &&
            options.dial.kind !== 'ClusterIP' &&
            svc.externalTrafficPolicy === 'Cluster'
              ? ' This extra hop, and the SNAT that makes the reply come back through this node, is the price of externalTrafficPolicy Cluster.'
              : ''
          }`,
        },
      });
      crossed = true;
      next = { place: `node:${target.name}`, origin: 'network' };
      continue;
    }
    if (lbAddress && pkt.dst === lbAddress) {
      if (lb && isMetalLB(lb.implementation))
        return done({
          kind: 'timed-out',
          at: here.place,
          reason: `with ipMode Proxy kube-proxy writes no rule for ${pkt.dst}, and under MetalLB there is no proxy to take it: the address is on no interface of ${node.name}, so it routes the packet back out, towards the node that announces it, and the packet circles until its TTL runs out`,
          summary: `Nothing takes ${pkt.dst}: ipMode Proxy with MetalLB, the connection times out.`,
        });
      // Not caught on the node (ipMode Proxy, or a hostname-only ingress): the packet leaves
      // for the balancer. Traffic
      // from pods to outside the cluster is masqueraded by the CNI plugin, not by kube-proxy.
      const before = arrived;
      steps.add({
        direction: 'request',
        at: here.place,
        from: here.place,
        to: 'lb',
        before,
        after: pkt,
        transform: pkt.src !== before.src ? 'SNAT' : 'none',
        rule: { kind: 'routing', text: `default route: ${pkt.dst} is outside the cluster` },
        narration: {
          title: `Out to the load balancer`,
          body: `${ingress ? 'With ipMode Proxy' : `The Service published only the hostname ${hostname}, so`} kube-proxy writes no rule for ${pkt.dst}, so ${node.name} routes the packet out to the balancer like any internet address${pkt.src !== before.src ? ` (the CNI plugin masquerades pod traffic leaving the cluster to ${node.internalIP})` : ''}.`,
        },
      });
      next = { place: 'lb', origin: 'network' };
      continue;
    }
    const owner = cluster.nodes.find((n) => n.addresses.includes(pkt.dst));
    if (owner && owner.name !== node.name) {
      next = { place: `node:${owner.name}`, origin: 'network' };
      continue;
    }
    return done({
      kind: 'timed-out',
      at: here.place,
      reason: `no route to ${pkt.dst}`,
      summary: 'The packet has nowhere to go.',
    });
  }
  return done({
    kind: 'timed-out',
    at: 'network',
    reason: 'the packet looped',
    summary: 'Too many hops.',
  });
}
