import type { ClientModel } from '../../model/scenario/cluster';
import type { TopologyLayout } from './layout';
import { SlotText } from './SlotText';

/** The internet client, drawn as a cloud (absent for in-cluster clients). */
export function ClientShape({
  layout: l,
  client,
  active,
}: {
  layout: TopologyLayout;
  client: ClientModel | undefined;
  active: boolean;
}) {
  if (!l.client) return null;
  const { box, title, address, sub } = l.client;
  const { x, y, w, h } = box;
  const cloud = `M ${x + w * 0.2} ${y + h * 0.95}
    a ${w * 0.2} ${h * 0.25} 0 0 1 ${-w * 0.02} ${-h * 0.5}
    a ${w * 0.25} ${h * 0.32} 0 0 1 ${w * 0.36} ${-h * 0.3}
    a ${w * 0.24} ${h * 0.3} 0 0 1 ${w * 0.36} ${h * 0.18}
    a ${w * 0.2} ${h * 0.3} 0 0 1 ${w * 0.08} ${h * 0.62} Z`;
  return (
    <g className={`client${active ? ' active' : ''}`} data-place="client">
      <path className="box cloud" d={cloud} />
      <SlotText className="title" at={title} text="Client" />
      <SlotText className="detail" at={address} text={client?.address ?? ''} />
      <SlotText className="muted" at={sub} text="the internet" />
    </g>
  );
}
