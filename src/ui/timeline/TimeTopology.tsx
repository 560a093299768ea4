import { memo, useEffect, useMemo, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import { stateAt } from '../../model/time';
import type { Epoch, Timeline } from '../../model/time/types';
import { StoreProvider, createAppStore, useAppStore, useAppStoreApi } from '../../store';
import { Topology } from '../topology/Topology';
import type { TopologyLayout } from '../topology/layout';
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
 * answers ARP (MetalLB) and what the provisioning is doing. `scale` is the stage's (present
 * mode draws it larger: Topology's `scale`); default 1.
 */
export const TimeTopology = memo(function TimeTopology({
  stage,
  scale = 1,
}: {
  stage: ProvisioningStage | null;
  scale?: number;
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
        {/* The marks are drawn inside the stage, in its own layout (it folds and zooms). */}
        <Topology
          rotationBadges={false}
          scale={scale}
          overlay={(l) =>
            epoch && (
              <Overlay l={l} timeline={timeline} epoch={epoch} stage={stage} probed={probed} />
            )
          }
        />
      </StoreProvider>
    </div>
  );
});

interface OverlayProps {
  /** The stage's layout the marks are placed in. */
  l: TopologyLayout;
  timeline: Timeline;
  epoch: Epoch;
  stage: ProvisioningStage | null;
  /** Comma-separated nodes whose first probe result is known by now. */
  probed: string;
}

/** Marks drawn over the topology, in its coordinates; they take no pointer events. */
function Overlay({ l, timeline, epoch, stage, probed }: OverlayProps) {
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
    <g className="time-overlay" aria-hidden="true" data-testid="time-overlay">
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
          x={l.lb.box.x - 4}
          y={l.lb.box.y - 4}
          width={l.lb.box.w + 8}
          height={l.lb.box.h + 8}
          rx={10}
        />
      )}
      {(none || metallb) && (
        <g className="tl-no-lb" data-testid="no-lb">
          <rect
            x={l.lb.box.x - 2}
            y={l.lb.box.y - 2}
            width={l.lb.box.w + 4}
            height={l.lb.box.h + 4}
            rx={9}
          />
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
            <text key={i} x={l.lb.box.x + 8} y={l.lb.box.y + 22 + i * 17}>
              {line}
            </text>
          ))}
        </g>
      )}
      {l.nodes.map((n) => {
        const inRot = epoch.inRotation.includes(n.name);
        const target = registered && timeline.targets.includes(n.name);
        const down = epoch.failedNodes.includes(n.name);
        // In the row the stage keeps for its own rotation badge (not drawn here).
        const y = n.rotation.box.y;
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
                x={n.nodePort.box.x - 3}
                y={n.nodePort.box.y - 3}
                width={n.nodePort.box.w + 6}
                height={n.nodePort.box.h + 6}
                rx={10}
              />
            )}
            <rect
              className="tl-rotation-tag"
              x={n.rotation.box.x}
              y={y}
              width={n.box.w - 20}
              height={n.rotation.box.h}
              rx={10}
            />
            <text x={n.rotation.box.x + (n.box.w - 20) / 2} y={y + 15} textAnchor="middle">
              {text}
            </text>
          </g>
        );
      })}
    </g>
  );
}
