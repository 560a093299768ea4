/**
 * The packet's header card, as data: which lines it shows for a trace step and how big it is.
 * Pure; it reads the step (before/after, changed, transform, rule) and decides nothing.
 */
import type { Packet, PacketField, TraceStep } from '../../model/trace/types';
import { formatMarkValue } from '../traceView';
import { lineHeight, textWidth } from './text';

/** One line of the card. A field line shows `old` struck through before `value` when it changed. */
export type CardLine =
  | { kind: 'head'; text: string }
  | { kind: 'field'; label: 'src' | 'dst' | 'mark'; value: string; old?: string; wrapped?: boolean }
  | { kind: 'rule'; text: string; full: string; where?: boolean };

/** The card: its lines and size, px. */
export interface CardModel {
  lines: CardLine[];
  w: number;
  h: number;
}

const SIZE = 12;
/** Line pitch inside the card, px. */
export const CARD_LINE = lineHeight(SIZE) + 2;
const PAD = 8;

const addr = (ip: string, port: number) => `${ip}:${port}`;

/** What acted at this hop, in a few words: the rule kube-proxy matched, or the balancer's decision. */
export function ruleLabel(step: TraceStep): string {
  const r = step.rule;
  const what =
    step.transform === 'DNAT'
      ? 'DNAT'
      : step.transform === 'SNAT'
        ? 'SNAT (masquerade)'
        : step.transform === 'reverse-NAT'
          ? 'reverse NAT'
          : step.transform === 'mark'
            ? 'mark'
            : step.transform === 'proxy'
              ? 'proxy'
              : '';
  const pre = what ? `${what} · ` : '';
  if (!r) return `${pre}${step.narration.title}`;
  if (r.kind === 'kube-proxy') return `${pre}${r.chain}\u0000on ${r.node} (${r.table} table)`;
  if (r.kind === 'cloud-lb') return `${pre || 'balancer · '}${r.text}`;
  if (r.kind === 'conntrack') return `${pre || 'conntrack · '}${r.text}`;
  return `${pre || 'routing · '}${r.text}`;
}

function fieldLine(
  label: 'src' | 'dst',
  before: Packet,
  after: Packet,
  changed: readonly PacketField[],
  maxW: number,
): CardLine[] {
  const ip = label === 'src' ? 'src' : 'dst';
  const port = label === 'src' ? 'sport' : 'dport';
  const value = addr(after[ip], after[port]);
  if (!changed.includes(ip) && !changed.includes(port)) return [{ kind: 'field', label, value }];
  const old = addr(before[ip], before[port]);
  const oneLine = textWidth(`${label} ${old} ${value}`, SIZE, false, true) + 2 * PAD <= maxW;
  return oneLine
    ? [{ kind: 'field', label, value, old }]
    : [
        { kind: 'field', label, value: '', old },
        { kind: 'field', label, value, wrapped: true },
      ];
}

/** `text` within `w` px of the card's rule text, cut at its end with "…". */
function fitEnd(text: string, w: number): string {
  const fits = (t: string) => textWidth(t, SIZE, true) <= w;
  if (fits(text)) return text;
  for (let n = text.length - 1; n > 0; n--)
    if (fits(`${text.slice(0, n)}…`)) return `${text.slice(0, n)}…`;
  return '…';
}

/** The card for `step` (or a resting packet with no step), at most `maxW` px wide. */
export function cardModel(step: TraceStep | undefined, packet: Packet, maxW: number): CardModel {
  const before = step?.before ?? packet;
  const after = step?.after ?? packet;
  const changed = step?.changed ?? [];
  const lines: CardLine[] = [
    { kind: 'head', text: `${after.protocol.toUpperCase()} ${after.flags}` },
    ...fieldLine('src', before, after, changed, maxW),
    ...fieldLine('dst', before, after, changed, maxW),
  ];
  if (after.mark || changed.includes('mark'))
    lines.push({
      kind: 'field',
      label: 'mark',
      value: formatMarkValue(after.mark),
      ...(changed.includes('mark') ? { old: formatMarkValue(before.mark) } : {}),
    });
  if (step) {
    // kube-proxy's rule on two lines: the chain (cut from its end), then the node it acted on.
    const [what = '', where] = ruleLabel(step).split('\u0000');
    const full = where ? `${what} ${where}` : what;
    lines.push({ kind: 'rule', text: fitEnd(what, maxW - 2 * PAD), full });
    if (where) lines.push({ kind: 'rule', text: fitEnd(where, maxW - 2 * PAD), full, where: true });
  }
  // Six lines at most (the room the layout keeps has six): the mark goes first, then the
  // rule's second line.
  while (lines.length > 6) {
    const i = lines.findIndex((x) => x.kind === 'field' && x.label === 'mark');
    const j = lines.findIndex((x) => x.kind === 'rule' && x.where);
    lines.splice(i >= 0 ? i : j >= 0 ? j : lines.length - 2, 1);
  }
  const widest = Math.max(
    ...lines.map((x) =>
      x.kind === 'field'
        ? textWidth(`${x.label} ${x.old ? `${x.old} ` : ''}${x.value}`, SIZE, false, true)
        : x.kind === 'rule'
          ? textWidth(x.text, SIZE, true)
          : textWidth(x.text, SIZE, true, true),
    ),
  );
  const w = Math.min(maxW, Math.max(200, widest + 2 * PAD));
  return { lines, w, h: lines.length * CARD_LINE + 2 * PAD - 2 };
}
