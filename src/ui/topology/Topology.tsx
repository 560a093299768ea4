import { Suspense, lazy, useCallback, useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { ModeRuleset } from '../../model/kube-proxy/types';
import { toggleNodeFailure, run } from '../../store/commands';
import {
  selectModelError,
  selectPlayback,
  selectResult,
  selectScene,
  selectStoryFocus,
  selectTrace,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { lbTargetHealth } from '../traceView';
import { implementationLine, isMetalLB } from '../../model/cloud/replyRoute';
import type { SceneResult } from '../../model';
import { ClientShape } from './ClientShape';
import { Defs } from './Defs';
import type { StageIds } from './Defs';
import { Edges } from './Edges';
import { foldCounts } from './foldCounts';

// The folded nodes' row: only clusters with more nodes than the stage draws in full have one
// (never the three-node first view), so it loads with the first such cluster.
const FoldedNodes = lazy(() => import('./FoldedNodes').then((m) => ({ default: m.FoldedNodes })));
import type { TopologyLayout } from './layout';
import { layout } from './layout';
import { LbBox } from './LbBox';
import { Legend } from './Legend';
import { NodeBox } from './NodeBox';
import { PacketMarker } from './PacketMarker';
import { pathOf } from './route';
import { natByNode } from './nat';
import { FALLBACK_SIZE, useStageSize } from './useStageSize';
import { useZoom } from './useZoom';
import { ZoomControls } from './ZoomControls';
import { SlotText } from './SlotText';
import './topology.css';

/** The stage's size before it is measured (kept for views that still need a default), px. */
export const VIEW_W = FALLBACK_SIZE.width;
export const VIEW_H = FALLBACK_SIZE.height;

function ruleCounts(rs: ModeRuleset | undefined) {
  if (!rs) return undefined;
  return { mode: rs.mode, rules: rs.lines.filter((l) => l.ruleId !== undefined).length };
}

interface TopologyProps {
  /** Drawn on top of the stage, in its coordinates (the time view's marks). */
  overlay?: (l: TopologyLayout) => ReactNode;
  /** Draw each node's "in / out of rotation" badge (the time view draws its own). */
  rotationBadges?: boolean;
  /**
   * Draw everything this many times larger (present mode: a projector's screen). The scene is
   * laid out for the stage's size divided by it and the SVG scaled back up (its viewBox), so a
   * 12 px label is 12 × scale CSS px on screen. Default 1.
   */
  scale?: number;
}

/**
 * The stage: client → cloud load balancer → the cluster's nodes, the wires and the packet, in
 * real pixels (the SVG fills its box; 1 unit = 1 CSS px), with pan and zoom, and a legend.
 */
export function Topology({ overlay, rotationBadges = true, scale = 1 }: TopologyProps) {
  const store = useAppStoreApi();
  const result = useAppStore(selectResult);
  const modelError = useAppStore(selectModelError);
  const scene = useAppStore(selectScene);
  const trace = useAppStore(selectTrace);
  const { stepIndex, speed } = useAppStore(selectPlayback);
  const focus = useAppStore(selectStoryFocus);
  const [canvasRef, measured] = useStageSize<HTMLDivElement>();
  // The size the scene is laid out for, in drawing units (CSS px / scale).
  const size = useMemo(
    () => ({
      width: Math.floor(measured.width / scale),
      height: Math.floor(measured.height / scale),
    }),
    [measured.width, measured.height, scale],
  );
  const [expanded, setExpanded] = useState(false);
  const uid = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const ids: StageIds = useMemo(
    () => ({
      arrowRequest: `${uid}-arrow-req`,
      arrowReply: `${uid}-arrow-rep`,
      cross: `${uid}-cross`,
      hatch: `${uid}-hatch`,
    }),
    [uid],
  );
  const cluster = result?.cluster;
  const lbModel = cluster?.loadBalancers.find((b) => b.service === result?.serviceKey);
  const lbIngress = cluster?.services.find(
    (sv) => `${sv.namespace}/${sv.name}` === result?.serviceKey,
  )?.ingress[0];
  // One legend line: what balancer the scene models and where the reply goes.
  const replyLegend = lbModel
    ? implementationLine(
        lbModel.implementation,
        lbIngress?.ipMode ?? scene.ipMode,
        announcer(result),
      )
    : undefined;
  const path = useMemo(
    () => (cluster ? pathOf(trace, cluster, scene.client) : { nodes: [], pods: [] }),
    [trace, cluster, scene.client],
  );
  const l = useMemo(
    () =>
      cluster &&
      layout({
        cluster,
        width: size.width,
        height: size.height,
        clientName: scene.client,
        pathNodes: path.nodes,
        pathPods: path.pods,
        expanded,
        failed: scene.failedNodes,
      }),
    [cluster, size.width, size.height, scene.client, path, expanded, scene.failedNodes],
  );
  const health = useMemo(() => lbTargetHealth(result?.lbTargets ?? []), [result]);
  const nat = useMemo(() => natByNode(trace, stepIndex), [trace, stepIndex]);
  const { svgRef, transform, zoomBy, fit, reveal } = useZoom(
    { w: l?.contentW ?? size.width, h: l?.contentH ?? size.height },
    l?.orientation !== 'vertical',
  );
  const onExpand = useCallback(
    (on: boolean) => {
      setExpanded(on);
      if (on && l) reveal(l.height - 8);
      else fit();
    },
    [l, reveal, fit],
  );
  const onFocusTile = useCallback(
    (y: number) => {
      const top = transform.applyY(y);
      if (top < 0 || top > size.height - 60) reveal(y - 60);
    },
    [transform, size.height, reveal],
  );

  const vertical = l?.orientation === 'vertical';
  // The stage grows to what the drawing needs; it never scales the drawing down.
  // The stage grows to what the drawing needs (it never scales the drawing down); a parent
  // with a definite, larger height gives it more room to unfold.
  const minHeight = (l ? l.minHeight : FALLBACK_SIZE.height) * scale;
  const controls = <ZoomControls zoomBy={zoomBy} fit={fit} />;
  // Narrow stages keep the zoom buttons out of the drawing, in a row above the legend.
  const canvas = (body: ReactNode) => (
    <div className={`stage-view${vertical ? ' vertical' : ''}`}>
      <div className="stage-canvas" ref={canvasRef} style={{ minHeight }}>
        {body}
        {!vertical && controls}
      </div>
      {vertical && controls}
      <Legend ids={ids} reply={replyLegend} />
    </div>
  );
  // Before the model's first answer there is nothing to draw yet (the stage says "Computing…"
  // after a moment); only an answer that is an error means the scenario could not be resolved.
  if (!cluster || !l)
    return canvas(
      modelError === undefined ? null : (
        <p className="empty">No topology: the scenario could not be resolved.</p>
      ),
    );

  const service =
    cluster.services.find((s) => `${s.namespace}/${s.name}` === result.serviceKey) ??
    cluster.services[0];
  const nodePort = service?.ports[0]?.nodePort ?? 0;
  const client = cluster.clients.find((c) => c.name === scene.client);
  const step = trace.steps[stepIndex];
  const firstPacket = trace.steps[0]?.before;
  const downNodes = scene.downNodes ?? [];
  const counts = l.fold && foldCounts(l.fold.names, health, scene.failedNodes, downNodes);
  const rotation = scene.choices.rotation !== undefined;
  const implementation =
    cluster.loadBalancers.find((b) => b.service === result.serviceKey)?.implementation ?? 'NAT';
  // MetalLB health-checks nothing: its rows say which node holds the address.
  const hasLb = result.lbTargets.length > 0 && !isMetalLB(implementation);
  const toggle = (name: string) => run(store, toggleNodeFailure(name));
  const activeFold =
    !!l.fold &&
    !!step &&
    !l.anchors[step.to] === false &&
    l.fold.names.some((n) => step.to === `node:${n}`);
  const t = transform;

  return canvas(
    <>
      <svg
        ref={svgRef}
        className="topology"
        width={l.width * scale}
        height={l.height * scale}
        viewBox={`0 0 ${l.width} ${l.height}`}
        role="group"
        aria-label={`Topology: client, cloud load balancer, ${cluster.nodes.length} nodes and their Pods`}
        data-testid="topology"
        data-node-count={cluster.nodes.length}
        data-orientation={l.orientation}
        data-drawn-nodes={l.nodes.length}
      >
        <Defs ids={ids} />
        <g transform={`translate(${t.x},${t.y}) scale(${t.k})`} className="stage-layer">
          <rect
            className="cluster-frame"
            x={l.cluster.x}
            y={l.cluster.y}
            width={l.cluster.w}
            height={l.cluster.h}
            rx={12}
          />
          <ClusterLabel l={l} service={service} />
          <Edges
            layout={l}
            cluster={cluster}
            trace={trace}
            stepIndex={stepIndex}
            health={health}
            foldFailing={(counts?.failing ?? 0) > 0}
            balancer={!isMetalLB(implementation)}
            ids={ids}
          />
          <ClientShape layout={l} client={client} active={step?.to === 'client'} />
          <LbBox
            layout={l}
            service={service}
            balancer={
              service &&
              cluster.loadBalancers.find(
                (b) => b.service === `${service.namespace}/${service.name}`,
              )
            }
            scene={scene}
            health={health}
            nodePort={nodePort}
            implementation={implementation}
            fold={counts}
            focusStatus={focus.includes('lb-status')}
            focusDecision={focus.includes('lb-decision')}
          />
          {l.nodes.map((n) => {
            const node = cluster.nodes.find((c) => c.name === n.name);
            if (!node) return null;
            return (
              <NodeBox
                key={n.name}
                node={node}
                box={n}
                failed={scene.failedNodes.includes(n.name)}
                unnoticed={downNodes.includes(n.name)}
                nodePort={nodePort}
                client={client}
                activePlace={step?.to}
                // MetalLB has no rotation: the balancer's box says which node holds the address.
                target={isMetalLB(implementation) ? undefined : health[n.name]}
                rotation={rotation}
                rotationBadge={rotationBadges}
                nat={nat[n.name] ?? { dnat: false, snat: false }}
                focusNodePorts={focus.includes('nodeports')}
                focusKubeProxy={focus.includes('endpoint-decision')}
                ruleCounts={result.ruleCounts?.[n.name] ?? ruleCounts(result.rules[n.name])}
                hatch={ids.hatch}
                onToggle={() => toggle(n.name)}
              />
            );
          })}
          {l.fold && counts && (
            <Suspense fallback={null}>
              <FoldedNodes
                fold={l.fold}
                cluster={cluster}
                counts={counts}
                health={health}
                rotation={rotation}
                hasLb={hasLb}
                failed={scene.failedNodes}
                expanded={expanded}
                active={activeFold}
                hatch={ids.hatch}
                onExpand={onExpand}
                onToggleNode={toggle}
                onFocusTile={onFocusTile}
              />
            </Suspense>
          )}
          {overlay?.(l)}
          {(step || firstPacket) && (
            <PacketMarker
              layout={l}
              cluster={cluster}
              moveKey={step?.id ?? 'start'}
              from={step?.from ?? 'client'}
              to={step?.to ?? 'client'}
              step={step}
              packet={step?.after ?? firstPacket!}
              speed={speed}
            />
          )}
        </g>
      </svg>
    </>,
  );
}

/** The node that answers ARP for the address (MetalLB layer 2), when one does. */
function announcer(result: SceneResult | undefined): string | undefined {
  return result?.lbTargets.find((c) => c.eligible && c.probability === 1)?.id;
}

function ClusterLabel({
  l,
  service,
}: {
  l: TopologyLayout;
  service: { namespace: string; name: string; clusterIP?: string } | undefined;
}) {
  const s = l.clusterLabel;
  const text = `Kubernetes cluster · Service ${service ? `${service.namespace}/${service.name}` : '—'} · ClusterIP ${service?.clusterIP ?? '—'}`;
  return <SlotText className="muted" at={s} text={text} />;
}
