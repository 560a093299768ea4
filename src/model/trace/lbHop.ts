/**
 * The hop at the `lb` place: the cloud balancer picks a node and hands the connection over
 * (`balancerStep.ts`), or, under MetalLB, there is no balancer and the packet reaches the node
 * that owns the address (`metallbStep.ts`).
 */
import { isMetalLB } from '../cloud/implementation';
import { balancerStep } from './balancerStep';
import { metallbStep } from './metallbStep';
import type { HopResult, TraceRun } from './run';

/**
 * MetalLB's hop: no balancer, so the step that sent the packet towards the address (the
 * client's dial) is redirected to end at the node that owns it (or back at its sender when no
 * node does), and that node is next.
 */
function metallbHop(run: TraceRun): HopResult {
  const { cluster, svc, lb, pkt, options, rngLB, rngPort, steps } = run;
  const m = metallbStep({ cluster, svc, lb, pkt, options, rngLB, rngPort });
  const sent = steps.last;
  if (sent?.to === 'lb') sent.to = 'outcome' in m ? sent.from : `node:${m.node.name}`;
  if ('outcome' in m) return m;
  steps.add(m.step);
  run.viaMetalLB = true;
  return { next: { place: `node:${m.node.name}`, origin: 'network' } };
}

/** The cloud balancer's hop: its step, the hop remembered for the reply, the packet it sends on. */
function balancerHop(run: TraceRun): HopResult {
  const { cluster, svc, lb, pkt, options, rngLB, rngPort } = run;
  const lbResult = balancerStep({ cluster, svc, lb, pkt, options, rngLB, rngPort });
  if ('outcome' in lbResult) return lbResult;
  const { after, node } = lbResult;
  run.steps.add(lbResult.step);
  run.hops.push({ place: 'lb', arrived: pkt, left: after });
  run.pkt = after;
  return { next: { place: `node:${node.name}`, origin: 'network' } };
}

/** The hop at the `lb` place (see the module comment). */
export function lbHop(run: TraceRun): HopResult {
  return run.lb && isMetalLB(run.lb.implementation) ? metallbHop(run) : balancerHop(run);
}
