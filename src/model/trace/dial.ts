/**
 * Where the client sends its SYN: the address and port that `options.dial` names on the traced
 * Service port — the published load-balancer address (or what its hostname resolves to), a
 * node's NodePort, the ClusterIP or the first externalIP — or the outcome when there is nothing
 * to dial.
 */
import type {
  Cluster,
  IngressModel,
  LoadBalancerModel,
  ServiceModel,
  ServicePortModel,
} from '../scenario/cluster';
import { findNode } from '../scenario/cluster';
import { serviceExternalIP } from '../k8s/kubectlColumns';
import type { DialTarget } from '../scenario/scene';
import type { Outcome } from './types';

/** The dialled address and port, or why the client has nothing to dial. */
export type DialResult = { dst: string; dport: number } | { outcome: Outcome };

/** What {@link dialAddress} reads. */
export interface DialContext {
  cluster: Cluster;
  svc: ServiceModel;
  /** The traced port. */
  port: ServicePortModel;
  lb: LoadBalancerModel | undefined;
  ingress: IngressModel | undefined;
  hostname: string | undefined;
  dial: DialTarget;
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

/** The load-balancer address the client dials: the ingress IP, or its hostname's answer. */
function loadBalancerAddress(ctx: DialContext): DialResult {
  const { svc, port, lb, ingress, hostname } = ctx;
  if (svc.type !== 'LoadBalancer')
    return {
      outcome: {
        kind: 'no-address',
        reason: `the Service is type ${svc.type}: it has no load-balancer address (kubectl shows EXTERNAL-IP ${serviceExternalIP(svc)})`,
        summary: `No load balancer to dial: EXTERNAL-IP ${serviceExternalIP(svc)}.`,
      },
    };
  if (ingress) return { dst: ingress.ip, dport: port.port };
  if (hostname !== undefined) {
    // The client resolves the name; the answer is the balancer's own address.
    if (!lb?.address)
      return {
        outcome: {
          kind: 'no-address',
          reason: `status.loadBalancer.ingress publishes only the hostname ${hostname}, and the scenario gives no address for it to resolve to (a CloudLoadBalancer's spec.address)`,
          summary: `${hostname} resolves to nothing the model knows.`,
        },
      };
    return { dst: lb.address, dport: port.port };
  }
  return {
    outcome: {
      kind: 'no-address',
      reason: `status.loadBalancer is empty: kubectl shows EXTERNAL-IP ${serviceExternalIP(svc)} until the cloud-controller-manager publishes an address`,
      summary: `No address to dial yet: EXTERNAL-IP ${serviceExternalIP(svc)}.`,
    },
  };
}

/**
 * The address and port the client dials (see the module comment).
 * @throws {Error} when a NodePort or ExternalIP dial names no node.
 */
export function dialAddress(ctx: DialContext): DialResult {
  const { cluster, svc, port, dial } = ctx;
  switch (dial.kind) {
    case 'LoadBalancer':
      return loadBalancerAddress(ctx);
    case 'NodePort': {
      const node = findNode(cluster, dial.nodeName);
      if (!node) throw new Error(`no node "${dial.nodeName}"`);
      if (port.nodePort === 0)
        return {
          outcome: {
            kind: 'no-address',
            reason: 'the Service has no nodePort',
            summary: 'No NodePort to dial.',
          },
        };
      return { dst: node.internalIP, dport: port.nodePort };
    }
    case 'ClusterIP':
      return { dst: svc.clusterIP, dport: port.port };
    case 'ExternalIP': {
      const routed = externalIPRoute(cluster, svc, dial.nodeName);
      if ('outcome' in routed) return routed;
      return { dst: routed.ip, dport: port.port };
    }
  }
}
