import { line } from 'd3-shape';
import type { Trace } from '../../model/trace/types';
import { hopsUpTo } from '../traceView';
import type { Point, TopologyLayout } from './layout';
import { route } from './layout';

const path = line<Point>()
  .x((p) => p.x)
  .y((p) => p.y);

interface EdgesProps {
  layout: TopologyLayout;
  trace: Trace;
  stepIndex: number;
}

/**
 * The wires: client → balancer, balancer → each node, each node ↔ the cluster network (thin
 * and dashed); the moves the packet has made so far on top (solid), the current one thickest.
 */
export function Edges({ layout: l, trace, stepIndex }: EdgesProps) {
  const base: { id: string; points: Point[] }[] = [];
  if (l.client) base.push({ id: 'client-lb', points: route(l, 'client', 'lb') });
  for (const n of l.nodes) {
    // Stop at the node's edge: the wire ends at the node, not at kube-proxy.
    const inbound = route(l, 'lb', `node:${n.name}`);
    base.push({ id: `lb-${n.name}`, points: inbound.slice(1, -1) });
    const cx = n.box.x + n.box.w / 2;
    base.push({
      id: `net-${n.name}`,
      points: [
        { x: cx, y: n.box.y + n.box.h },
        { x: cx, y: l.bus.y },
      ],
    });
  }
  const hops = hopsUpTo(trace, stepIndex);
  return (
    <g className="edges">
      <line className="bus" x1={l.bus.x1} x2={l.bus.x2} y1={l.bus.y} y2={l.bus.y} />
      <text className="bus-label" x={l.bus.x1 + 4} y={l.bus.y + 16}>
        cluster network
      </text>
      {base.map((e) => (
        <path key={e.id} className="edge" d={path(e.points) ?? ''} />
      ))}
      {hops.map((h, i) => {
        const current = h.stepIndex === stepIndex;
        return (
          <path
            key={`${h.stepIndex}-${i}`}
            className={`edge used ${h.direction}${current ? ' current' : ''}`}
            d={path(route(l, h.from, h.to)) ?? ''}
            markerEnd={current ? 'url(#arrow)' : undefined}
            data-hop={`${h.from}>${h.to}`}
          />
        );
      })}
    </g>
  );
}
