import type { ClientModel } from '../../model/scenario/cluster';
import type { TopologyLayout } from './layout';

/** The internet client, drawn as a cloud left of the balancer (absent for in-cluster clients). */
export function ClientShape({
  layout: l,
  client,
}: {
  layout: TopologyLayout;
  client: ClientModel | undefined;
}) {
  const b = l.client;
  if (!b) return null;
  const { x, y, w, h } = b;
  const cloud = `M ${x + w * 0.2} ${y + h * 0.75}
    a ${w * 0.18} ${h * 0.2} 0 0 1 ${w * 0.02} ${-h * 0.38}
    a ${w * 0.25} ${h * 0.28} 0 0 1 ${w * 0.42} ${-h * 0.12}
    a ${w * 0.2} ${h * 0.22} 0 0 1 ${w * 0.3} ${h * 0.2}
    a ${w * 0.16} ${h * 0.18} 0 0 1 ${-w * 0.02} ${h * 0.3} Z`;
  return (
    <g className="client" data-place="client">
      <path className="box cloud" d={cloud} />
      <text className="title" x={x + w / 2} y={y + h * 0.66} textAnchor="middle">
        Client
      </text>
      <text className="detail mono small" x={x + w / 2} y={y + h + 8} textAnchor="middle">
        {client?.address ?? ''}
      </text>
      <text className="detail muted small" x={x + w / 2} y={y + h + 22} textAnchor="middle">
        the internet
      </text>
    </g>
  );
}
