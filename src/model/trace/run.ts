/**
 * The state one trace carries from hop to hop ({@link TraceRun}): the traced Service and port,
 * the client, the balancer, the seeded random streams, and what the connection has done so far
 * (the steps, conntrack entries and hops the reply will retrace). `trace()` builds it once; each
 * stage (`dial.ts`, `clientStep.ts`, `lbHop.ts`, `nodeHop.ts`, `onward.ts`, `deliver.ts`) reads
 * it and appends to it.
 */
import type {
  ClientModel,
  Cluster,
  IngressModel,
  LoadBalancerModel,
  ServiceModel,
  ServicePortModel,
} from '../scenario/cluster';
import type { Choices, DialTarget } from '../scenario/scene';
import type { ModeRuleset, Origin, ProxyModeImpl } from '../kube-proxy/types';
import type { Rng } from '../random';
import type { StepList } from './builder';
import type { Hop } from './reply';
import type { ConntrackEntry, Outcome, Packet, Place } from './types';

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

/** Where the packet goes next, and how the place it reaches sees it arrive. */
export interface Next {
  place: Place;
  origin: Origin;
}

/** A stage's answer: the next place, or the end of the connection. */
export type HopResult = { next: Next } | { outcome: Outcome };

/** One trace in progress (see the module comment). Stages mutate `pkt`, the lists and flags. */
export interface TraceRun {
  cluster: Cluster;
  options: TraceOptions;
  /** The traced Service, its traced port first in `ports`. */
  svc: ServiceModel;
  /** The traced port (`svc.ports[0]`). */
  port: ServicePortModel;
  client: ClientModel;
  /** The CloudLoadBalancer fronting the Service, if any. */
  lb: LoadBalancerModel | undefined;
  /** `status.loadBalancer.ingress[0]`, if any. */
  ingress: IngressModel | undefined;
  /** The published hostname (an AWS-style balancer), if any. */
  hostname: string | undefined;
  /** The balancer's address as the client's packets carry it (undefined: nothing to reach it by). */
  lbAddress: string | undefined;
  /** The kube-proxy mode's generator and walker. */
  impl: ProxyModeImpl<ModeRuleset>;
  /** A node's rules, generated on first use. */
  rulesOf: (node: string) => ModeRuleset;
  /** Seeded streams: the balancer's choice, the endpoint choice, source ports. */
  rngLB: Rng;
  rngEP: Rng;
  rngPort: Rng;
  steps: StepList;
  conntrack: ConntrackEntry[];
  /** The places the request passed, for the reply. */
  hops: Hop[];
  /** The packet as it is now. */
  pkt: Packet;
  /** The request crossed from one node to another. */
  crossed: boolean;
  /** kube-proxy masqueraded the request on some node. */
  snatted: boolean;
  /** MetalLB, not a balancer, brought the packet to a node. */
  viaMetalLB: boolean;
}
