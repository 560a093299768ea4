/**
 * `trace(cluster, options)`: one TCP connection (its SYN, then the SYN-ACK back) from a
 * client through the cloud load balancer and kube-proxy's rules to a pod, step by step.
 *
 * The kube-proxy steps come from walking the node's generated rules
 * (the mode's walker, see `kube-proxy/types.ts`); the balancer's steps from its health checks and delivery mode;
 * the reply from the conntrack entries the request created, undone hop by hop.
 *
 * The stages, in the order a packet meets them: `dial.ts` (what the client dials),
 * `clientStep.ts` (where its SYN goes first), then per hop `lbHop.ts` (the balancer or MetalLB)
 * or `nodeHop.ts` (kube-proxy on a node) followed by `onward.ts` (where it goes from there),
 * and `deliver.ts` (into the Pod, and the reply back). They share one {@link TraceRun}.
 */
import type { Cluster, ServiceModel } from '../scenario/cluster';
import { ingressHostname } from '../scenario/cluster';
import type { ModeRuleset } from '../kube-proxy/types';
import { proxyMode } from '../kube-proxy/modes';
import { createRng } from '../random';
import { StepList } from './builder';
import { clientHop } from './clientStep';
import { dialAddress } from './dial';
import { lbHop } from './lbHop';
import { crossNode } from './nodeHop';
import { routeOnward } from './onward';
import type { HopResult, Next, TraceOptions, TraceRun } from './run';
import type { ConntrackEntry, Outcome, Trace } from './types';

export type { TraceOptions } from './run';

const MAX_HOPS = 8;

/** Picks the Service the trace is about. @throws {Error} when the cluster has no Service. */
export function pickService(cluster: Cluster, key?: string): ServiceModel {
  const svc = key
    ? cluster.services.find((s) => `${s.namespace}/${s.name}` === key)
    : (cluster.services.find((s) => s.type === 'LoadBalancer') ?? cluster.services[0]);
  if (!svc) throw new Error(key ? `no Service "${key}"` : 'the scenario has no Service');
  return svc;
}

/**
 * The traced Service with the traced port first in its view, so every step (the balancer, the
 * narration, the decision) speaks of it; the node's rules still hold every port.
 */
function tracedService(cluster: Cluster, options: TraceOptions): ServiceModel {
  const picked = pickService(cluster, options.service);
  const chosenPort = picked.ports.find((p) => p.name === options.port) ?? picked.ports[0];
  return chosenPort
    ? { ...picked, ports: [chosenPort, ...picked.ports.filter((p) => p !== chosenPort)] }
    : picked;
}

/** One hop at `here`: the balancer's, or a node's followed by where the packet goes next. */
function hop(run: TraceRun, here: Next): HopResult {
  if (here.place === 'lb') return lbHop(run);
  const crossing = crossNode(run, here);
  return 'outcome' in crossing ? crossing : routeOnward(run, here, crossing);
}

/**
 * Traces one connection.
 * @param rules the nodes' rules, when already generated; a node missing from it has its rules
 *   generated (and added) when the packet reaches it.
 * @throws {Error} when `options.client` names no Client, or the dial target names no node.
 */
export function trace(
  cluster: Cluster,
  options: TraceOptions,
  rules?: Record<string, ModeRuleset>,
): Trace {
  const svc = tracedService(cluster, options);
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

  const ingress = svc.ingress[0];
  // An AWS-style balancer publishes a DNS name and no IP: the client dials what the name resolves to.
  const hostname = ingressHostname(svc);
  const dialled = dialAddress({ cluster, svc, port, lb, ingress, hostname, dial: options.dial });
  if ('outcome' in dialled) return done(dialled.outcome);
  const run: TraceRun = {
    cluster,
    options,
    svc,
    port,
    client,
    lb,
    ingress,
    hostname,
    lbAddress: ingress ? ingress.ip : hostname !== undefined ? lb?.address : undefined,
    impl,
    rulesOf,
    rngLB,
    rngEP,
    rngPort,
    steps,
    conntrack,
    hops: [],
    pkt: {
      protocol: port.protocol,
      flags: 'SYN',
      src: client.address,
      sport: client.sourcePort,
      dst: dialled.dst,
      dport: dialled.dport,
      mark: 0,
    },
    crossed: false,
    snatted: false,
    viaMetalLB: false,
  };

  let result = clientHop(run);
  for (let i = 0; i < MAX_HOPS && 'next' in result; i++) result = hop(run, result.next);
  if ('outcome' in result) return done(result.outcome);
  return done({
    kind: 'timed-out',
    at: 'network',
    reason: 'the packet looped',
    summary: 'Too many hops.',
  });
}
