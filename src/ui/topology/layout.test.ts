import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, runScene } from '../../model';
import type { Cluster } from '../../model/scenario/cluster';
import type { Place } from '../../model/trace/types';
import type { Box, Point } from './layout';
import { labelSlot, layout, route } from './layout';
import { targetLine } from './LbBox';

const W = 900;
const H = 360;
const { cluster, trace } = runScene(canonicalObjects(), DEFAULT_SCENE);

const inside = (p: Point, b: Box) =>
  p.x >= b.x && p.x <= b.x + b.w && p.y >= b.y && p.y <= b.y + b.h;
const boxInside = (a: Box, b: Box) =>
  a.x >= b.x && a.y >= b.y && a.x + a.w <= b.x + b.w && a.y + a.h <= b.y + b.h;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const view: Box = { x: 0, y: 0, w: W, h: H };

/** The canonical cluster with `n` nodes (copies of node-1 under new names). */
function withNodes(n: number): Cluster {
  const base = cluster.nodes[0]!;
  return {
    ...cluster,
    nodes: Array.from({ length: n }, (_, i) => ({ ...base, name: `node-${i + 1}` })),
  };
}

describe('layout()', () => {
  it('places every box inside the viewBox', () => {
    const l = layout(cluster, W, H, 'internet');
    expect(l.client && boxInside(l.client, view)).toBe(true);
    expect(boxInside(l.lb, view)).toBe(true);
    expect(boxInside(l.cluster, view)).toBe(true);
    for (const n of l.nodes) {
      expect(boxInside(n.box, l.cluster)).toBe(true);
      expect(boxInside(n.kubeProxy, n.box)).toBe(true);
      expect(boxInside(n.nodePortBadge, n.box)).toBe(true);
      for (const p of n.pods) expect(boxInside(p.box, n.box)).toBe(true);
    }
    for (const p of Object.values(l.anchors)) expect(inside(p, view)).toBe(true);
  });

  it('orders client, balancer and cluster left to right', () => {
    const l = layout(cluster, W, H, 'internet');
    expect(l.client!.x + l.client!.w).toBeLessThan(l.lb.x);
    expect(l.lb.x + l.lb.w).toBeLessThan(l.cluster.x);
  });

  it.each([1, 3, 5])('puts %i nodes side by side without overlap', (n) => {
    const l = layout(withNodes(n), W, H, 'internet');
    expect(l.nodes).toHaveLength(n);
    for (let i = 1; i < l.nodes.length; i++) {
      const a = l.nodes[i - 1]!.box;
      const b = l.nodes[i]!.box;
      expect(overlap(a, b)).toBe(false);
      expect(a.x).toBeLessThan(b.x);
    }
  });

  it('never overlaps pods, kube-proxy and a host client inside a node', () => {
    for (const client of ['internet', 'node', 'pod']) {
      const l = layout(cluster, W, H, client);
      for (const n of l.nodes) {
        const boxes = [n.kubeProxy, ...(n.host ? [n.host] : []), ...n.pods.map((p) => p.box)];
        for (let i = 0; i < boxes.length; i++)
          for (let j = i + 1; j < boxes.length; j++)
            expect(overlap(boxes[i]!, boxes[j]!)).toBe(false);
      }
    }
  });

  it('has an anchor for every place the trace names', () => {
    const l = layout(cluster, W, H, DEFAULT_SCENE.client);
    const places = new Set<Place>(trace.steps.flatMap((s) => [s.at, s.from, s.to]));
    for (const p of places) expect(l.anchors[p], p).toBeDefined();
  });

  it('draws the client inside node-2 for the Node and Pod clients', () => {
    const node2 = (l: ReturnType<typeof layout>) => l.nodes.find((n) => n.name === 'node-2')!.box;
    const host = layout(cluster, W, H, 'node');
    expect(host.client).toBeUndefined();
    expect(inside(host.anchors['client']!, node2(host))).toBe(true);
    const pod = layout(cluster, W, H, 'pod');
    expect(pod.anchors['client']).toEqual(pod.anchors['pod:default/curl']);
    expect(inside(pod.anchors['client']!, node2(pod))).toBe(true);
  });
});

/** The canonical cluster with `n` Pods on node-1 (copies of its web Pod under new names). */
function withPods(n: number, nodeName = 'node-1'): Cluster {
  const base = cluster.pods.find((p) => p.nodeName === 'node-1')!;
  const others = cluster.pods.filter((p) => p.nodeName !== nodeName);
  return {
    ...cluster,
    pods: [
      ...others,
      ...Array.from({ length: n }, (_, i) => ({
        ...base,
        nodeName,
        name: `web-6d8f9c7b5-p${i}abc`,
        ip: `10.244.1.${20 + i}`,
      })),
    ],
  };
}

describe('Pods in a node (rev-time finding 17: three Pods on one node overlapped)', () => {
  it.each([1, 2, 3, 4, 5, 8, 20])('%i Pods on one node never overlap and stay inside it', (n) => {
    for (const client of ['internet', 'node']) {
      const l = layout(withPods(n), W, H, client);
      const node = l.nodes.find((x) => x.name === 'node-1')!;
      const boxes = [
        node.kubeProxy,
        ...(node.host ? [node.host] : []),
        ...node.pods.map((p) => p.box),
        ...(node.morePods ? [node.morePods.box] : []),
      ];
      for (const b of boxes) expect(boxInside(b, node.box)).toBe(true);
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++)
          expect(overlap(boxes[i]!, boxes[j]!), `${n} pods, ${client}: ${i}/${j}`).toBe(false);
      // Every Pod is drawn or counted in "+N more", and every one has an anchor in the node.
      expect(node.pods.length + (node.morePods?.keys.length ?? 0)).toBe(n);
      for (const p of withPods(n).pods.filter((x) => x.nodeName === 'node-1'))
        expect(inside(l.anchors[`pod:${p.namespace}/${p.name}`]!, node.box)).toBe(true);
      // A box is tall enough for its lines: two lines need 38 px, one 18 px.
      for (const p of node.pods) expect(p.box.h).toBeGreaterThanOrEqual(p.compact ? 18 : 38);
    }
  });

  it('two Pods keep two-line boxes; three or more get one line each with a shortened name', () => {
    expect(layout(withPods(2), W, H).nodes[0]!.pods.every((p) => !p.compact)).toBe(true);
    const three = layout(withPods(3), W, H).nodes[0]!.pods;
    expect(three.every((p) => p.compact)).toBe(true);
    // name (6.4 px a character) + IP (6.7 px) + ✓ fit the box with their gaps.
    for (const p of three) {
      const c = p.compact!;
      const used = 6 + c.nameChars * 6.4 + 10 + (c.showIP ? p.pod.ip.length * 6.7 : 0) + 20;
      expect(used).toBeLessThanOrEqual(p.box.w);
    }
  });
});

describe('node titles and NodePort badges (rev-time finding 17: long names ran into the badge)', () => {
  /** Canonical nodes renamed as AKS names them. */
  const aks = {
    ...cluster,
    nodes: cluster.nodes.map((n, i) => ({ ...n, name: `aks-nodepool1-38290761-vmss00000${i}` })),
  };
  it('a short name sits beside the badge; a long one gets the row and the badge moves under it', () => {
    const short = layout(cluster, W, H).nodes[0]!;
    // "node-1" (6 characters, ≤ 9.4 px each in 13 px bold) ends before the badge starts.
    expect(short.box.x + 8 + 6 * 9.4).toBeLessThan(short.nodePortBadge.x);
    expect(short.nodePortBadge.y).toBe(short.box.y + 6);
    for (const n of layout(aks, W, H).nodes) {
      const titleEnd = n.box.x + 8 + n.titleChars * 9.4;
      expect(titleEnd).toBeLessThanOrEqual(n.box.x + n.box.w - 8);
      // The badge is under the title and the address (baseline y + 33), above kube-proxy.
      expect(n.nodePortBadge.y).toBeGreaterThanOrEqual(n.box.y + 36);
      expect(n.nodePortBadge.y + n.nodePortBadge.h).toBeLessThanOrEqual(n.kubeProxy.y);
      expect(boxInside(n.nodePortBadge, n.box)).toBe(true);
      // Enough of the name is left to tell the nodes apart (shortName keeps the end).
      expect(n.titleChars).toBeGreaterThanOrEqual(15);
    }
  });
});

describe('route()', () => {
  const l = layout(cluster, W, H, 'internet');
  it('starts at the from anchor and ends at the to anchor, inside the viewBox', () => {
    const pairs: [Place, Place][] = [
      ['client', 'lb'],
      ['lb', 'node:node-3'],
      ['node:node-2', 'node:node-3'],
      ['node:node-1', 'network'],
      ['network', 'pod:default/web-6d8f9c7b5-q7m9z'],
      ['pod:default/web-6d8f9c7b5-q7m9z', 'client'],
      ['lb', 'client'],
    ];
    for (const [a, b] of pairs) {
      const pts = route(l, a, b);
      expect(pts[0]).toEqual(l.anchors[a]);
      expect(pts[pts.length - 1]).toEqual(l.anchors[b]);
      for (const p of pts) expect(inside(p, view), `${a}→${b}`).toBe(true);
    }
  });

  it('is a single point when the packet stays put, and empty for unknown places', () => {
    expect(route(l, 'node:node-1', 'node:node-1')).toEqual([l.anchors['node:node-1']]);
    expect(route(l, 'node:nope', 'lb')).toEqual([]);
  });

  it('keeps the packet label inside the viewBox', () => {
    for (const place of Object.keys(l.anchors) as Place[]) {
      const slot = labelSlot(l, place, 180, 52);
      expect(boxInside({ ...slot, w: 180, h: 52 }, view), place).toBe(true);
    }
  });
});

describe('the balancer’s target lines (rev-time: a long name and "out of rotation" ran out of the box)', () => {
  const lbW = layout(cluster, W, H).lb.w;
  const c = (eligible: boolean) => ({ id: 'n', label: 'n', probability: 0, eligible, status: '' });
  it('keep short names and the full mark; shorten a long name and the mark to fit', () => {
    expect(targetLine('node-2', c(false), true, lbW)).toBe('node-2 ○ out of rotation');
    const long = targetLine('aks-nodepool1-38290761-vmss000002', c(false), true, lbW);
    expect(long).toBe('aks-n…000002 ○ out');
    // 6.6 px a character at 11 px, 8 px padding each side.
    for (const line of ['node-2 ○ out of rotation', long])
      expect(line.length * 6.6).toBeLessThanOrEqual(lbW - 16);
    expect(targetLine('aks-nodepool1-38290761-vmss000000', c(true), false, lbW)).toBe(
      'aks-n…000000 ✓ passing',
    );
  });
});
