import type { Candidate, Trace } from '../../model/trace/types';
import type { Cluster } from '../../model/scenario/cluster';
import { hopsUpTo } from '../traceView';
import type { StageIds } from './Defs';
import { url } from './Defs';
import type { TopologyLayout } from './layout';
import { busLink, healthWire, route } from './route';
import { polyline as path } from './polyline';
import { SlotText } from './SlotText';

interface EdgesProps {
  layout: TopologyLayout;
  cluster: Cluster;
  trace: Trace;
  stepIndex: number;
  health: Record<string, Candidate>;
  /** Some folded node fails its health check. */
  foldFailing: boolean;
  /** A balancer is drawn (false under MetalLB: no health checks, no idle wire to it). */
  balancer?: boolean;
  ids: StageIds;
}

/**
 * The wires, all in gutters: the balancer's health checks to each drawn node (dotted; a failing
 * one in the failed colour with a cross at the node), each node's link to the cluster network,
 * and on top the moves the packet has made so far — request solid, reply dashed, each ending
 * in an arrowhead, the current one thickest.
 */
export function Edges({
  layout: l,
  cluster,
  trace,
  stepIndex,
  health,
  foldFailing,
  balancer = true,
  ids,
}: EdgesProps) {
  const hops = hopsUpTo(trace, stepIndex);
  const hasLb = balancer && Object.keys(health).length > 0;
  const checks = [
    ...l.nodes.map((n) => ({ id: n.name, failing: health[n.name]?.eligible === false })),
    ...(l.fold ? [{ id: 'fold', failing: foldFailing }] : []),
  ];
  return (
    <g className="edges">
      <line className="bus" x1={l.bus.x1} x2={l.bus.x2} y1={l.bus.y1} y2={l.bus.y2} />
      <SlotText className="muted" at={l.bus.label} text="cluster network" />
      {l.nodes.map((n) => (
        <path key={`net-${n.name}`} className="edge idle" d={path(busLink(l, n))} />
      ))}
      {l.client && balancer && <path className="edge idle" d={path(route(l, 'client', 'lb'))} />}
      {hasLb &&
        checks.map((c) => (
          <path
            key={`hc-${c.id}`}
            className={`edge health${c.failing ? ' failing' : ''}`}
            d={path(healthWire(l, c.id === 'fold' ? (l.fold?.names[0] ?? '') : c.id))}
            markerEnd={c.failing ? url(ids.cross) : undefined}
            data-health={c.id}
            data-failing={c.failing}
          />
        ))}
      {hops.map((h, i) => {
        const current = h.stepIndex === stepIndex;
        return (
          <path
            key={`${h.stepIndex}-${i}`}
            className={`edge used ${h.direction}${current ? ' current' : ''}`}
            d={path(route(l, h.from, h.to, cluster))}
            markerEnd={url(h.direction === 'reply' ? ids.arrowReply : ids.arrowRequest)}
            data-hop={`${h.from}>${h.to}`}
          />
        );
      })}
    </g>
  );
}
