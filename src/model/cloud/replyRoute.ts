/**
 * What a balancer's implementation means for the reply and for its labels (issue 14, point 9):
 * the pure half of `implementation.ts`, with no import but types, so the drawing (in the first
 * page load) takes these words without MetalLB's leader election and its SHA-256.
 */
import type { LoadBalancerImplementation } from '../k8s/objects';

/**
 * Which way the node's reply travels to an internet client:
 * - `balancer`: back through the balancer, which sends it on from the address the client
 *   dialled (a NAT balancer, or a proxy's own connection);
 * - `direct`: from the node straight to the client, its source already the load-balancer IP
 *   (direct server return, and MetalLB where there is no balancer).
 */
export type ReplyRoute = 'balancer' | 'direct';

/** Whether the implementation is MetalLB: no balancer on the path, a node owns the address. */
export function isMetalLB(impl: LoadBalancerImplementation): boolean {
  return impl === 'MetalLB-L2' || impl === 'MetalLB-BGP';
}

/**
 * The reply's route. `ipMode: Proxy` means a proxy that ends the client's connection, so the
 * reply belongs to the proxy's own connection and returns through it, whatever the
 * implementation; otherwise NAT returns through the balancer and the rest answer directly.
 */
export function replyRoute(impl: LoadBalancerImplementation, ipMode: 'VIP' | 'Proxy'): ReplyRoute {
  if (ipMode === 'Proxy' && !isMetalLB(impl)) return 'balancer';
  return impl === 'NAT' ? 'balancer' : 'direct';
}

/** A short name of the implementation for a control or a box title: `NAT`, `DSR`, `MetalLB L2`. */
export function implementationName(impl: LoadBalancerImplementation): string {
  switch (impl) {
    case 'NAT':
      return 'NAT';
    case 'DirectServerReturn':
      return 'DSR';
    case 'MetalLB-L2':
      return 'MetalLB L2';
    case 'MetalLB-BGP':
      return 'MetalLB BGP';
  }
}

/**
 * One short line that says what the scene models and where the reply goes, for the stage's
 * legend, e.g. "reply via the NAT balancer (like AWS NLB)".
 * @param announcer the node that answers ARP (MetalLB L2), when known
 */
export function implementationLine(
  impl: LoadBalancerImplementation,
  ipMode: 'VIP' | 'Proxy',
  announcer?: string,
): string {
  if (ipMode === 'Proxy' && !isMetalLB(impl)) return 'reply via the proxy (ipMode Proxy)';
  switch (impl) {
    case 'NAT':
      return 'reply via the NAT balancer (like AWS NLB)';
    case 'DirectServerReturn':
      return 'reply straight from the node (DSR, like GCP)';
    case 'MetalLB-L2':
      return `no balancer: ${announcer ?? 'one node'} answers ARP and the client`;
    case 'MetalLB-BGP':
      return 'no balancer: a BGP router routes to a node';
  }
}
