import type { Packet, Place, TraceStep } from '../../model/trace/types';
import type { Cluster } from '../../model/scenario/cluster';
import { fadeDuration, stepDuration } from '../motion';
import { useMotionParts } from '../motionFeatures';
import { usePrefersReducedMotion } from '../reducedMotion';
import type { Speed } from '../../store/types';
import type { Point, TopologyLayout } from './layout';
import { cardLeader, cardRoom, cardSlot, route } from './route';
import { CARD_LINE, cardModel } from './card';
import { textWidth } from './text';

interface PacketMarkerProps {
  layout: TopologyLayout;
  cluster: Cluster;
  /** A key that changes whenever a new move starts (the step id). */
  moveKey: string;
  from: Place;
  to: Place;
  step: TraceStep | undefined;
  packet: Packet;
  speed: Speed;
}

function keyframeTimes(points: Point[]): number[] {
  const seg = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  const total = seg.reduce((a, b) => a + b, 0) || 1;
  let acc = 0;
  return [0, ...seg.map((d) => (acc += d) / total)];
}

const MONO_W = (s: string) => textWidth(s, 12, false, true);

/**
 * The packet: a dot moved along the current step's route with framer-motion, and its header
 * card in the band the layout keeps free, following the dot's x. The card shows protocol and
 * flags, `src` and `dst`; a field the step rewrote shows its old value struck through and the
 * new one beside it (faded in), and the last line names the rule that acted. Reduced motion (or
 * speed 0): everything jumps. framer-motion loads after the first paint (`motionFeatures.ts`):
 * until then, and always under reduced motion, the packet is drawn where its move ends.
 */
export function PacketMarker({
  layout: l,
  cluster,
  moveKey,
  from,
  to,
  step,
  packet,
  speed,
}: PacketMarkerProps) {
  const reduced = usePrefersReducedMotion();
  const { parts, settled } = useMotionParts(!reduced, moveKey);
  const { Root, G, Line } = parts;
  // The move on screen when the animation arrived is already drawn at its end: no replay.
  const jump = reduced || settled === moveKey;
  const points = route(l, from, to, cluster);
  const end = points[points.length - 1];
  if (!end) return null;
  const ms = stepDuration(speed, jump);
  const fade = fadeDuration(jump) / 1000;
  const start = ms === 0 ? end : (points[0] ?? end);
  // The card rides beside the dot while it moves, then settles in the room kept for it: under
  // the packet's node (joined to the dot by a thin leader), or under the balancer.
  const room = cardRoom(l, to, cluster);
  const card = cardModel(step, packet, Math.min(320, room.box.w));
  const at = cardSlot(room, card.w);
  const leader =
    room.aim !== undefined ? cardLeader(end, { ...at, w: card.w, h: card.h }) : undefined;
  const ride = points.map((p, i) => (i === points.length - 1 ? at : { x: p.x + 14, y: p.y + 14 }));
  const times = keyframeTimes(points);
  const transition = { duration: ms / 1000, ease: 'easeInOut' as const, times };
  return (
    <Root>
      <g
        className="packet"
        data-testid="packet"
        data-packet-at={to}
        data-packet-from={from}
        data-animated={parts.animated}
      >
        <title>{`Packet ${packet.protocol.toUpperCase()} ${packet.flags} from ${packet.src}:${packet.sport} to ${packet.dst}:${packet.dport}`}</title>
        {leader && (
          <Line
            key={`leader-${moveKey}`}
            className="packet-leader"
            data-testid="packet-leader"
            x1={leader.a.x}
            y1={leader.a.y}
            x2={leader.b.x}
            y2={leader.b.y}
            initial={{ opacity: ms === 0 ? 1 : 0 }}
            animate={{ opacity: 1 }}
            transition={{ duration: fade, delay: ms / 1000 }}
          />
        )}
        <G
          key={`card-${moveKey}`}
          className="packet-card"
          data-testid="packet-card"
          initial={ms === 0 ? { x: at.x, y: at.y } : { x: ride[0]!.x, y: ride[0]!.y }}
          animate={{ x: ride.map((p) => p.x), y: ride.map((p) => p.y) }}
          transition={transition}
        >
          <rect className="packet-card-frame" width={card.w} height={card.h} rx={6} />
          {card.lines.map((line, i) => {
            const y = 8 + i * CARD_LINE + 12;
            if (line.kind === 'head')
              return (
                <text key={i} className="mono b card-head" x={8} y={y} fontSize={12}>
                  {line.text}
                </text>
              );
            if (line.kind === 'rule')
              return (
                <text
                  key={i}
                  className="card-rule"
                  x={8}
                  y={y}
                  fontSize={12}
                  data-card={line.where ? 'rule-where' : 'rule'}
                >
                  <title>{line.full}</title>
                  {line.text}
                </text>
              );
            const label = line.wrapped ? '' : `${line.label} `;
            const labelW = MONO_W(`${line.label} `);
            const oldW = line.old ? MONO_W(`${line.old} `) : 0;
            return (
              <g key={i} data-card-field={line.label}>
                {!line.wrapped && (
                  <text className="mono muted" x={8} y={y} fontSize={12}>
                    {label}
                  </text>
                )}
                {line.old && (
                  <G
                    key={`old-${moveKey}`}
                    initial={{ opacity: fade ? 0.3 : 1 }}
                    animate={{ opacity: 1 }}
                    transition={{ duration: fade }}
                  >
                    <text className="mono old" x={8 + labelW} y={y} fontSize={12}>
                      {line.old}
                    </text>
                  </G>
                )}
                {line.value && (
                  <G
                    key={`new-${moveKey}`}
                    initial={line.old || line.wrapped ? { opacity: fade ? 0 : 1 } : false}
                    animate={{ opacity: 1 }}
                    transition={{ duration: fade * 2, delay: ms / 1000 }}
                  >
                    <text
                      className={`mono${line.old || line.wrapped ? ' new' : ''}`}
                      x={8 + labelW + oldW}
                      y={y}
                      fontSize={12}
                    >
                      {line.wrapped ? `→ ${line.value}` : line.value}
                    </text>
                  </G>
                )}
              </g>
            );
          })}
        </G>
        <G
          key={`dot-${moveKey}`}
          initial={{ x: start.x, y: start.y }}
          animate={{ x: points.map((p) => p.x), y: points.map((p) => p.y) }}
          transition={transition}
        >
          <circle className="packet-dot" r={7} />
        </G>
      </g>
    </Root>
  );
}
