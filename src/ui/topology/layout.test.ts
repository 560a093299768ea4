import { describe, expect, it } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, runScene } from '../../model';
import type { Cluster } from '../../model/scenario/cluster';
import type { Place } from '../../model/trace/types';
import type { Box, Point } from './layout';
import { labelSlot, layout, route } from './layout';

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
