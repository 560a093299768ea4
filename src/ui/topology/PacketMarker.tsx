import { m, useReducedMotion } from 'framer-motion';
import type { Packet, PacketField, Place } from '../../model/trace/types';
import { stepDuration } from '../motion';
import type { Speed } from '../../store/types';
import type { Point, TopologyLayout } from './layout';
import { labelSlot, route } from './layout';
import { formatMarkValue } from '../traceView';

interface PacketMarkerProps {
  layout: TopologyLayout;
  /** A key that changes whenever a new move starts (the step id). */
  moveKey: string;
  from: Place;
  to: Place;
  packet: Packet;
  changed: readonly PacketField[];
  speed: Speed;
}

const CHAR_W = 6.7;

function keyframeTimes(points: Point[]): number[] {
  const seg = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  const total = seg.reduce((a, b) => a + b, 0) || 1;
  let acc = 0;
  return [0, ...seg.map((d) => (acc += d) / total)];
}

function Field({
  field,
  changed,
  children,
}: {
  field: PacketField;
  changed: readonly PacketField[];
  children: string;
}) {
  const on = changed.includes(field);
  return <tspan className={on ? 'changed' : undefined}>{on ? `${children}*` : children}</tspan>;
}

/**
 * The packet: one labelled element moved along the route of the current step with
 * framer-motion. Its label shows `src:sport → dst:dport` after the step; rewritten fields
 * are coloured, bold and starred. Reduced motion: it jumps.
 */
export function PacketMarker({
  layout: l,
  moveKey,
  from,
  to,
  packet,
  changed,
  speed,
}: PacketMarkerProps) {
  const reduced = useReducedMotion() ?? false;
  const points = route(l, from, to);
  const end = points[points.length - 1];
  if (!end) return null;
  const ms = stepDuration(speed, reduced);
  const start = ms === 0 ? end : (points[0] ?? end);
  const line1 = `${packet.flags} ${packet.src}:${packet.sport}${changed.includes('src') ? '*' : ''}${changed.includes('sport') ? '*' : ''}`;
  const line2 = `→ ${packet.dst}:${packet.dport}${changed.includes('dst') ? '*' : ''}${changed.includes('dport') ? '*' : ''}`;
  const markText =
    packet.mark || changed.includes('mark') ? `mark ${formatMarkValue(packet.mark)}` : '';
  const labelW = Math.max(line1.length, line2.length, 12) * CHAR_W + 14;
  const labelH = markText ? 52 : 38;
  const slot = labelSlot(l, to, labelW, labelH);
  const lx = slot.x - end.x;
  const ly = slot.y - end.y;
  // The leader runs from the dot to the label's nearest edge point.
  const nx = Math.max(lx, Math.min(0, lx + labelW));
  const ny = Math.max(ly, Math.min(0, ly + labelH));
  return (
    <m.g
      key={moveKey}
      className="packet"
      data-testid="packet"
      data-packet-at={to}
      data-packet-from={from}
      initial={{ x: start.x, y: start.y }}
      animate={{ x: points.map((p) => p.x), y: points.map((p) => p.y) }}
      transition={{ duration: ms / 1000, ease: 'easeInOut', times: keyframeTimes(points) }}
    >
      <title>{`Packet ${packet.protocol.toUpperCase()} ${packet.flags} from ${packet.src}:${packet.sport} to ${packet.dst}:${packet.dport}`}</title>
      <line className="packet-leader" x1={0} y1={0} x2={nx} y2={ny} />
      <circle className="packet-dot" r={7} />
      <g transform={`translate(${lx}, ${ly})`}>
        <rect className="packet-label" width={labelW} height={labelH} rx={5} />
        <text className="mono packet-text" x={7} y={15}>
          <tspan className="flags">{`${packet.flags} `}</tspan>
          <Field field="src" changed={changed}>
            {packet.src}
          </Field>
          :
          <Field field="sport" changed={changed}>
            {String(packet.sport)}
          </Field>
        </text>
        <text className="mono packet-text" x={7} y={31}>
          {'→ '}
          <Field field="dst" changed={changed}>
            {packet.dst}
          </Field>
          :
          <Field field="dport" changed={changed}>
            {String(packet.dport)}
          </Field>
        </text>
        {markText && (
          <text className="mono packet-text" x={7} y={46}>
            <Field field="mark" changed={changed}>
              {markText}
            </Field>
          </text>
        )}
      </g>
    </m.g>
  );
}
