/**
 * The client's step: where its SYN goes first — the node it runs on (a Node or Pod client),
 * the balancer (it dialled the load-balancer address), the node the externalIP is routed to,
 * or the node that owns the dialled address — and the step that narrates the dial.
 */
import type { ClusterNode } from '../scenario/cluster';
import { findNode } from '../scenario/cluster';
import type { StepDraft } from './builder';
import type { HopResult, Next, TraceRun } from './run';

/** How the narration names the client. */
function clientText(run: TraceRun, home: ClusterNode | undefined): string {
  const { client } = run;
  return client.location === 'Internet'
    ? 'A client on the internet'
    : client.location === 'Node'
      ? `A process on ${home?.name} (host network)`
      : `A pod on ${home?.name}`;
}

/** The first place the SYN reaches, or the outcome when the dialled address is unreachable. */
function firstPlace(run: TraceRun, home: ClusterNode | undefined): HopResult {
  const { cluster, client, lbAddress, options } = run;
  const dst = run.pkt.dst;
  if (home)
    return {
      next: {
        place: `node:${home.name}`,
        origin: client.location === 'Node' ? 'local-host' : 'local-pod',
      },
    };
  if (lbAddress && dst === lbAddress) return { next: { place: 'lb', origin: 'network' } };
  if (options.dial.kind === 'ExternalIP') {
    // A node that holds the address itself gets it (ARP); otherwise the administrator's route.
    const owner = cluster.nodes.find((n) => n.addresses.includes(dst));
    return {
      next: { place: `node:${owner?.name ?? options.dial.nodeName}`, origin: 'network' },
    };
  }
  const owner = cluster.nodes.find((n) => n.addresses.includes(dst));
  if (!owner)
    return {
      outcome: {
        kind: 'timed-out',
        at: 'client',
        reason: `${dst} is not reachable from the internet (a ClusterIP exists only inside the cluster)`,
        summary: 'The SYN goes nowhere; the client times out.',
      },
    };
  return { next: { place: `node:${owner.name}`, origin: 'network' } };
}

/** The client's step towards `next`. */
function dialStep(run: TraceRun, home: ClusterNode | undefined, next: Next): StepDraft {
  const { cluster, options, ingress, hostname, port, pkt } = run;
  const dst = pkt.dst;
  const viaName = options.dial.kind === 'LoadBalancer' && !ingress && hostname !== undefined;
  const dialText = `${dst}:${pkt.dport}`;
  const who = clientText(run, home);
  const routedTo = findNode(cluster, next.place.slice('node:'.length));
  return {
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
          body: `${who} looks up ${hostname}, the name the cloud published in status.loadBalancer.ingress (kubectl shows it as EXTERNAL-IP). DNS answers ${dst}: the balancer's own address, not one kube-proxy knows — kube-proxy makes rules for ingress IPs only, and this Service has none. So no node will accept a packet still addressed to ${dst}: the balancer must deliver to a NodePort (${port.nodePort}), and keeping the load-balancer IP as the destination (LoadBalancerIP delivery, ipMode VIP) cannot work here. The first packet, a SYN from ${pkt.src}:${pkt.sport}, goes to ${dialText}.`,
        }
      : {
          title: `The client dials ${dialText}`,
          body: `${who} opens a TCP connection: its first packet, a SYN from ${pkt.src}:${pkt.sport}, is addressed to ${dialText}.`,
        },
  };
}

/**
 * The client's dial: adds its step to `run.steps` and returns where the SYN goes first, or the
 * outcome when it goes nowhere (a ClusterIP dialled from outside the cluster).
 */
export function clientHop(run: TraceRun): HopResult {
  const { cluster, client } = run;
  const home = client.nodeName ? findNode(cluster, client.nodeName) : undefined;
  const first = firstPlace(run, home);
  if ('outcome' in first) return first;
  run.steps.add(dialStep(run, home, first.next));
  return first;
}
