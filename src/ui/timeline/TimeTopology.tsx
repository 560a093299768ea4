import { memo, useEffect, useMemo, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { stateAt } from '../../model/time';
import type { Epoch, Timeline } from '../../model/time/types';
import { StoreProvider, createAppStore, useAppStore, useAppStoreApi } from '../../store';
import { derive } from '../../store/derive';
import { Topology, VIEW_H, VIEW_W } from '../topology/Topology';
import { layout } from '../topology/layout';
import { toggleNodeNow } from './commands';
import { epochAt } from '../../store/timelineDerive';
import { useTimeline } from './context';
import type { ProvisioningStage } from './provisioning';

/**
 * The existing topology, drawn as the cluster is at the current simulated time: a store of its
 * own holds the model's snapshot of the epoch the clock is in (`stateAt`), so nodes are down,
 * Pods gone and EXTERNAL-IP pending exactly when the timeline says. Clicking a node (or
 * Enter/Space on it) schedules "fail" or "restore" for that node at the current time instead
 * of changing the trace's scene. An overlay marks each node's rotation state, the node that
 * answers ARP (MetalLB) and what the provisioning is doing.
 */
export const TimeTopology = memo(function TimeTopology({
  stage,
}: {
  stage: ProvisioningStage | null;
}) {
  const app = useAppStoreApi();
  const timeline = useTimeline();
  const epochIndex = useAppStore((s) => epochAt(timeline, s.time.simMs)?.index ?? 0);
  const epoch = timeline.epochs[epochIndex];
  const snapshot = useMemo(() => stateAt(timeline, epoch?.from ?? 0), [timeline, epoch]);
  // When each node's first probe result was known (a node that never passed shows as out).
  const firstProbe = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of timeline.probes) if (!m.has(p.node)) m.set(p.node, p.doneAt);
    return m;
  }, [timeline]);
  const probed = useAppStore((s) =>
    [...firstProbe]
      .filter(([, at]) => at <= s.time.simMs)
      .map(([n]) => n)
      .join(','),
  );
  const [store] = useState(() =>
    createAppStore({ objects: snapshot.objects, scene: snapshot.scene }),
  );
  useEffect(() => {
    store.setState({ objects: snapshot.objects, scene: snapshot.scene });
  }, [store, snapshot]);

  const nodeOf = (target: EventTarget | null): HTMLElement | SVGElement | null => {
    if (!(target instanceof Element)) return null;
    return target.closest<SVGElement>('[role="button"][data-place^="node:"]');
  };
  const act = (el: Element) => {
    const name = el.getAttribute('data-place')?.slice('node:'.length) ?? '';
    // Down as the timeline has it now (the drawing's own flag only knows noticed failures).
    toggleNodeNow(app, name, epoch?.failedNodes.includes(name) ?? false);
  };
  const onClick = (e: MouseEvent) => {
    const el = nodeOf(e.target);
    if (!el) return;
    e.stopPropagation();
    e.preventDefault();
    act(el);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const el = nodeOf(e.target);
    if (!el) return;
    e.stopPropagation();
    e.preventDefault();
    act(el);
  };

  return (
    <div
      className="time-topology"
      onClickCapture={onClick}
      onKeyDownCapture={onKeyDown}
      data-epoch={epochIndex}
    >
      <StoreProvider store={store}>
        <Topology />
      </StoreProvider>
      {epoch && (
        <Overlay
          timeline={timeline}
          epoch={epoch}
          objects={snapshot.objects}
          scene={snapshot.scene}
          stage={stage}
          probed={probed}
        />
      )}
    </div>
  );
});

interface OverlayProps {
  timeline: Timeline;
  epoch: Epoch;
  objects: Parameters<typeof derive>[0];
  scene: Parameters<typeof derive>[1];
  stage: ProvisioningStage | null;
  /** Comma-separated nodes whose first probe result is known by now. */
  probed: string;
}

/** Marks drawn over the topology, in its coordinates; they take no pointer events. */
function Overlay({ timeline, epoch, objects, scene, stage, probed }: OverlayProps) {
  const d = derive(objects, scene);
  const l = useMemo(
    () => (d.ok ? layout(d.result.cluster, VIEW_W, VIEW_H, scene.client) : undefined),
    [d, scene.client],
  );
  if (!l) return null;
  const controller = timeline.settings.provisioning.controller;
  const metallb = controller === 'metallb-l2';
  const none = controller === 'none';
  const announcing = epoch.state.announcingNode;
  // Whether the balancer has counted a node in or out at least once by now.
  const judged = (node: string) =>
    timeline.rotation.some((r) => r.node === node && r.at <= epoch.from);
  const registered = timeline.registeredAt !== null && timeline.registeredAt <= epoch.from;
  const probedNow = new Set(probed.split(','));
  return (
    <svg
      className="time-overlay"
      viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
      aria-hidden="true"
      data-testid="time-overlay"
    >
      <defs>
        <pattern
          id="tl-hatch"
          width="6"
          height="6"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <line x1="0" y1="0" x2="0" y2="6" className="tl-hatch-line" />
        </pattern>
      </defs>
      {stage && (stage.id === 'building' || stage.id === 'noticed') && (
        <rect
          className="tl-highlight"
          x={l.lb.x - 4}
          y={l.lb.y - 4}
          width={l.lb.w + 8}
          height={l.lb.h + 8}
          rx={10}
        />
      )}
      {(none || metallb) && (
        <g className="tl-no-lb" data-testid="no-lb">
          <rect x={l.lb.x - 2} y={l.lb.y - 2} width={l.lb.w + 4} height={l.lb.h + 4} rx={9} />
          {(none
            ? [
                'No load balancer:',
                'nothing provisions one',
                '(no controller).',
                'Clients can only dial',
                'a NodePort directly.',
              ]
            : [
                'MetalLB layer 2:',
                'no balancer box. The',
                `speaker on ${announcing ?? '(none yet)'}`,
                'answers ARP for the',
                'address; all traffic',
                'enters that one node.',
              ]
          ).map((line, i) => (
            <text key={i} x={l.lb.x + 8} y={l.lb.y + 22 + i * 17}>
              {line}
            </text>
          ))}
        </g>
      )}
      {l.nodes.map((n) => {
        const inRot = epoch.inRotation.includes(n.name);
        const target = registered && timeline.targets.includes(n.name);
        const down = epoch.failedNodes.includes(n.name);
        const y = n.box.y + n.box.h - 26;
        const text = metallb
          ? announcing === n.name
            ? `⇄ answers ARP${down ? ' (but down)' : ''}`
            : down
              ? '✗ down · speaker gone'
              : 'speaker standing by'
          : none
            ? down
              ? '✗ down'
              : 'NodePort only'
            : inRot
              ? down
                ? '✗ down · still in rotation'
                : '● in rotation'
              : !target
                ? down
                  ? '✗ down'
                  : registered
                    ? 'not a target (excluded)'
                    : 'not a target yet'
                : down
                  ? '✗ down · out of rotation'
                  : judged(n.name)
                    ? '○ out of rotation'
                    : probedNow.has(n.name)
                      ? '○ out · never passed'
                      : 'awaiting its first probe';
        const cls = metallb ? (announcing === n.name ? 'in' : 'out') : inRot ? 'in' : 'out';
        return (
          <g
            key={n.name}
            className={`tl-rotation ${cls}${down ? ' down' : ''}`}
            data-node={n.name}
            data-rotation={cls}
          >
            {stage?.id === 'registered' && (
              <rect
                className="tl-highlight"
                x={n.nodePortBadge.x - 3}
                y={n.nodePortBadge.y - 3}
                width={n.nodePortBadge.w + 6}
                height={n.nodePortBadge.h + 6}
                rx={10}
              />
            )}
            <rect
              className="tl-rotation-tag"
              x={n.box.x + 8}
              y={y}
              width={n.box.w - 16}
              height={18}
              rx={9}
            />
            <text x={n.box.x + n.box.w / 2} y={y + 13} textAnchor="middle">
              {text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
