import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, runScene } from '../../model';
import { generatedCluster } from '../../model/scenario/generated';
import type { Box, TopologyLayout } from './layout';
import { CARD_H, layout } from './layout';
import { cardLeader, cardRoom, cardSlot, pathOf, route } from './route';
import type { TextSlot } from './text';
import { fitText, lineHeight, slotBox, textWidth } from './text';
import { cardModel } from './card';

const canonical = runScene(canonicalObjects(), DEFAULT_SCENE);

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Box, b: Box) =>
  a.x >= b.x - 0.01 &&
  a.y >= b.y - 0.01 &&
  a.x + a.w <= b.x + b.w + 0.01 &&
  a.y + a.h <= b.y + b.h + 0.01;

/** Every text slot the layout places (what the stage draws text into). */
function slots(l: TopologyLayout): { id: string; s: TextSlot }[] {
  const out: { id: string; s: TextSlot }[] = [];
  const add = (id: string, s: TextSlot | undefined) => s && out.push({ id, s });
  if (l.client) {
    add('client.title', l.client.title);
    add('client.address', l.client.address);
    add('client.sub', l.client.sub);
  }
  l.lb.header.forEach((s, i) => add(`lb.header${i}`, s));
  for (const r of l.lb.rows) add(`lb.row.${r.name}`, r.text);
  add('lb.fold', l.lb.foldRow?.text);
  add('cluster.label', l.clusterLabel);
  add('bus.label', l.bus.label);
  for (const n of l.nodes) {
    const p = `node.${n.name}`;
    add(`${p}.title`, n.title);
    add(`${p}.ip`, n.ip);
    add(`${p}.status`, n.status.text);
    add(`${p}.nodePort`, n.nodePort.text);
    add(`${p}.rotation`, n.rotation.text);
    add(`${p}.kpTitle`, n.kpTitle);
    add(`${p}.kpMode`, n.kpMode);
    // The rules line, or the DNAT/SNAT badges in its place: never both.
    add(`${p}.kpRules`, n.kpRules);
    add(`${p}.host`, n.host?.text);
    for (const pod of n.pods) {
      add(`${p}.pod.${pod.key}.name`, pod.name);
      add(`${p}.pod.${pod.key}.ip`, pod.ip);
      add(`${p}.pod.${pod.key}.ready`, pod.ready);
    }
    add(`${p}.more`, n.morePods?.text);
  }
  if (l.fold) {
    l.fold.lines.forEach((s, i) => add(`fold.line${i}`, s));
    if (l.fold.tiles) {
      add('tiles.heading', l.fold.tiles.heading);
      add('tiles.hide', l.fold.tiles.hide.text);
      for (const t of l.fold.tiles.tiles) {
        add(`tile.${t.name}.title`, t.title);
        add(`tile.${t.name}.status`, t.status);
        add(`tile.${t.name}.pods`, t.pods);
      }
    }
  }
  return out;
}

/** Overlapping slot pairs, by a sweep over x so 3,000 slots stay cheap. */
function overlapping(all: { id: string; s: TextSlot }[]): string[] {
  const boxes = all.map((a) => ({ id: a.id, b: slotBox(a.s) })).sort((p, q) => p.b.x - q.b.x);
  const bad: string[] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length && boxes[j]!.b.x < boxes[i]!.b.x + boxes[i]!.b.w; j++)
      if (overlap(boxes[i]!.b, boxes[j]!.b)) bad.push(`${boxes[i]!.id} × ${boxes[j]!.id}`);
  return bad;
}

describe('text measurement (DejaVu Sans advance widths)', () => {
  it('estimates exact widths', () => {
    expect(textWidth('node-1', 12)).toBe(44);
    expect(textWidth('10.244.1.5', 12, false, true)).toBe(74);
    expect(textWidth('node-1', 13, true)).toBe(53);
    expect(lineHeight(12)).toBe(15);
  });
  it('shortens in the middle, keeping the end', () => {
    const s = { x: 0, y: 0, w: 80, size: 12 };
    expect(fitText('node-1', s)).toBe('node-1');
    const short = fitText('gke-prod-default-pool-6f1c2a3b-4kxz', s);
    expect(short).toContain('…');
    expect(short.endsWith('kxz')).toBe(true);
    expect(textWidth(short, 12)).toBeLessThanOrEqual(80);
  });
  it('a DNS node name (EKS) loses its shared domain first, never the part that tells nodes apart', () => {
    const s = { x: 0, y: 0, w: 120, size: 12 };
    expect(fitText('ip-192-168-12-34.ec2.internal', s)).toBe('ip-192-168-12-34…');
    // Too narrow even for the first label: that label is shortened in its middle.
    const narrow = fitText('ip-192-168-12-34.ec2.internal', { ...s, w: 70 });
    expect(narrow).toMatch(/^ip-1[^…]*…[^…]*34$/);
    expect(textWidth(narrow, 12)).toBeLessThanOrEqual(70);
    // Addresses are not DNS names: middle-shortened as before.
    expect(fitText('192.168.100.200', { ...s, w: 60 })).not.toMatch(/^192…$/);
  });
});

describe('layout() of the canonical scenario', () => {
  const path = pathOf(canonical.trace, canonical.cluster, DEFAULT_SCENE.client);
  const l = layout({
    cluster: canonical.cluster,
    width: 900,
    height: 460,
    clientName: DEFAULT_SCENE.client,
    pathNodes: path.nodes,
    pathPods: path.pods,
  });

  it('is horizontal at 900 px, draws all three nodes and folds nothing', () => {
    expect(l.orientation).toBe('horizontal');
    expect(l.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2', 'node-3']);
    expect(l.fold).toBeUndefined();
    expect(l.lb.rows.map((r) => r.name)).toEqual(['node-1', 'node-2', 'node-3']);
    // The least height: the balancer, two rows and the packet card under it.
    expect(l.minHeight).toBe(370);
    expect(l.height).toBe(460);
    // Nodes as tall as their content (header, rotation, kube-proxy, one two-line Pod), the
    // cluster network 12 px under them, the card's band 10 px under that.
    expect(l.nodes[0]!.box).toEqual({ x: 258, y: 74, w: 200, h: 188 });
    for (const n of l.nodes) expect(n.box.h).toBe(188);
    expect(l.bus.y1).toBe(74 + 188 + 12);
    expect(l.card).toEqual({ x: 12, y: 242, w: 228, h: CARD_H });
    expect(l.cardBand).toEqual({ x: 258, y: 284, w: 620, h: CARD_H });
    expect(l.cluster.y + l.cluster.h).toBe(284 + CARD_H + 10);
  });

  it('keeps the packet card rooms clear of every text', () => {
    for (const { id, s } of slots(l)) {
      expect(overlap(slotBox(s), l.card), id).toBe(false);
      expect(overlap(slotBox(s), l.cardBand!), id).toBe(false);
    }
  });

  it('rests the card under the packet’s node, joined to the dot by a leader', () => {
    const step = canonical.trace.steps.find((s) => s.to.startsWith('node:'))!;
    const node = l.nodes.find((n) => `node:${n.name}` === step.to)!;
    const room = cardRoom(l, step.to, canonical.cluster);
    const at = cardSlot(room, 228);
    expect(at.y).toBe(l.cardBand!.y);
    // Centred on the node, clamped to the band.
    const band = l.cardBand!;
    const centred = node.box.x + node.box.w / 2 - 114;
    expect(at.x).toBe(Math.min(Math.max(centred, band.x), band.x + band.w - 228));
    const dot = l.anchors[step.to]!;
    const leader = cardLeader(dot, { ...at, w: 228, h: 100 });
    expect(leader?.b.y).toBe(at.y);
    // At the balancer it rests under the balancer.
    expect(cardSlot(cardRoom(l, 'lb'), 228)).toEqual({ x: l.card.x, y: l.card.y });
  });

  it('routes every step of the trace between its places, inside the drawing', () => {
    for (const s of canonical.trace.steps) {
      const pts = route(l, s.from, s.to, canonical.cluster);
      expect(pts.length, `${s.from}>${s.to}`).toBeGreaterThan(0);
      const end = pts[pts.length - 1]!;
      // A reply reaches the balancer at its row for that node (its right edge), else the anchor.
      if (s.to === 'lb' && s.from !== 'client') expect(end.x).toBe(l.lb.box.x + l.lb.box.w);
      else expect(end).toEqual(l.anchors[s.to]);
      for (const p of pts) {
        expect(p.x).toBeGreaterThanOrEqual(0);
        expect(p.y).toBeGreaterThanOrEqual(0);
        expect(p.x).toBeLessThanOrEqual(l.width);
        expect(p.y).toBeLessThanOrEqual(l.height);
      }
    }
  });

  it('is vertical below 700 px, nodes stacked', () => {
    const v = layout({
      cluster: canonical.cluster,
      width: 375,
      height: 460,
      clientName: 'internet',
    });
    expect(v.orientation).toBe('vertical');
    const ys = v.nodes.map((n) => n.box.y);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
    for (let i = 1; i < v.nodes.length; i++)
      expect(v.nodes[i]!.box.y).toBeGreaterThan(v.nodes[i - 1]!.box.y + v.nodes[i - 1]!.box.h);
  });
});

describe('the DNAT/SNAT badges', () => {
  it('sit side by side in the rules row, inside kube-proxy', () => {
    const l = layout({ cluster: canonical.cluster, width: 900, height: 460 });
    for (const n of l.nodes) {
      expect(overlap(n.dnat.box, n.snat.box)).toBe(false);
      expect(inside(n.dnat.box, n.kubeProxy)).toBe(true);
      expect(inside(n.snat.box, n.kubeProxy)).toBe(true);
      expect(overlap(slotBox(n.kpTitle), n.dnat.box)).toBe(false);
    }
  });
});

describe('pathOf()', () => {
  it('names the nodes and the Pod the canonical trace passes', () => {
    const p = pathOf(canonical.trace, canonical.cluster, DEFAULT_SCENE.client);
    expect(p.nodes.length).toBeGreaterThan(0);
    if (canonical.trace.outcome.kind === 'delivered') {
      expect(p.nodes).toContain(canonical.trace.outcome.node);
      expect(p.pods).toContain(canonical.trace.outcome.pod);
    }
  });
});

describe('layout() of generated clusters, 1 … 1,000 nodes, 375 … 1920 px', () => {
  const sizes = [1, 2, 3, 6, 12, 100, 1000];
  const widths = [375, 480, 699, 700, 820, 1015, 1280, 1440, 1920];
  for (const n of sizes) {
    const r = runScene(generatedCluster({ nodes: n, pods: Math.min(1000, n * 10) }), DEFAULT_SCENE);
    const path = pathOf(r.trace, r.cluster, DEFAULT_SCENE.client);
    it(`${n} nodes: no two texts overlap, all inside, path drawn, the rest counted`, () => {
      for (const width of widths)
        for (const expanded of n > 12 && width !== 1015 ? [false] : [false, true]) {
          const l = layout({
            cluster: r.cluster,
            width,
            height: 460,
            clientName: DEFAULT_SCENE.client,
            pathNodes: path.nodes,
            pathPods: path.pods,
            expanded,
          });
          const all = slots(l);
          const where = `${n} nodes at ${width} px${expanded ? ', expanded' : ''}`;
          expect(overlapping(all), where).toEqual([]);
          const drawing = { x: 0, y: 0, w: l.contentW, h: l.contentH };
          for (const { id, s } of all) {
            expect(s.size, id).toBeGreaterThanOrEqual(12);
            expect(s.w, `${where}: ${id}`).toBeGreaterThanOrEqual(0);
            expect(inside(slotBox(s), drawing), `${where}: ${id}`).toBe(true);
          }
          for (const node of path.nodes)
            expect(
              l.nodes.map((x) => x.name),
              where,
            ).toContain(node);
          expect(l.nodes.length + (l.fold?.names.length ?? 0)).toBe(n);
          for (const p of path.pods) expect(l.anchors[`pod:${p}`], `${where}: ${p}`).toBeDefined();
          for (const node of l.nodes)
            for (const pod of path.pods)
              if (
                r.cluster.pods.find((x) => `${x.namespace}/${x.name}` === pod)?.nodeName ===
                node.name
              )
                expect(
                  node.pods.map((x) => x.key),
                  `${where}: ${pod}`,
                ).toContain(pod);
          if (expanded && l.fold) expect(l.fold.tiles?.tiles.length).toBe(l.fold.names.length);
        }
    });
  }
});

describe('the packet card', () => {
  it('strikes the old destination on the DNAT step and names the rule and node', () => {
    const step = canonical.trace.steps.find(
      (s) => s.transform === 'DNAT' && s.rule?.kind === 'kube-proxy',
    );
    expect(step).toBeDefined();
    const card = cardModel(step, step!.after, 228);
    const dst = card.lines.filter((x) => x.kind === 'field' && x.label === 'dst');
    expect(dst[0]).toMatchObject({ old: `${step!.before.dst}:${step!.before.dport}` });
    expect(
      dst.some((x) => x.kind === 'field' && x.value === `${step!.after.dst}:${step!.after.dport}`),
    ).toBe(true);
    const rules = card.lines
      .filter((x) => x.kind === 'rule')
      .map((x) => x.kind === 'rule' && x.text);
    expect(rules[0]).toMatch(/^DNAT · KUBE-SEP-/);
    expect(rules[1]).toMatch(/^on node-\d \(nat table\)$/);
    expect(card.lines.length).toBeLessThanOrEqual(6);
    expect(card.h).toBeLessThanOrEqual(CARD_H);
    expect(card.w).toBeLessThanOrEqual(228);
  });
});

describe('the reply wire under direct server return and MetalLB (issue 14)', () => {
  /** Whether any point of the polyline lies inside `b` (its border included), sampled every 0.5 px. */
  const touches = (pts: { x: number; y: number }[], b: Box) =>
    pts.slice(1).some((p, i) => {
      const q = pts[i]!;
      const n = Math.max(1, Math.ceil(Math.hypot(p.x - q.x, p.y - q.y) / 0.5));
      for (let k = 0; k <= n; k++) {
        const x = q.x + ((p.x - q.x) * k) / n;
        const y = q.y + ((p.y - q.y) * k) / n;
        if (x >= b.x && x <= b.x + b.w && y >= b.y && y <= b.y + b.h) return true;
      }
      return false;
    });

  for (const implementation of ['DirectServerReturn', 'MetalLB-L2', 'MetalLB-BGP'] as const)
    for (const width of [420, 960, 1300]) {
      it(`${implementation}, ${width} px: node ↔ client never touches the balancer's box`, () => {
        // Google Cloud's passthrough balancer: "Responses … go directly to the clients, not back
        // through the load balancer"; MetalLB puts no balancer on the path at all.
        const r = runScene(canonicalObjects(), {
          ...DEFAULT_SCENE,
          implementation,
          delivery: 'LoadBalancerIP',
        });
        const l = layout({ cluster: r.cluster, width, height: 620, clientName: 'internet' });
        const hops = r.trace.steps.filter(
          (s) =>
            (s.from === 'client' && s.to.startsWith('node:')) ||
            (s.from.startsWith('node:') && s.to === 'client'),
        );
        expect(hops.some((s) => s.direction === 'reply')).toBe(true);
        for (const s of hops) {
          const pts = route(l, s.from, s.to, r.cluster);
          expect(pts[0], `${s.from}>${s.to} starts`).toEqual(l.anchors[s.from]);
          expect(pts[pts.length - 1], `${s.from}>${s.to} ends`).toEqual(l.anchors[s.to]);
          expect(touches(pts, l.lb.box), `${l.orientation} ${s.from}>${s.to}`).toBe(false);
        }
      });
    }
});
