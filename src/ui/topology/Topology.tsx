import { useMemo } from 'react';
import type { Focus } from '../../model/walkthrough/types';
import type { ModeRuleset } from '../../model/kube-proxy/types';
import { DEFAULT_WALKTHROUGH } from '../../model';
import { toggleNodeFailure, run } from '../../store/commands';
import {
  selectPlayback,
  selectResult,
  selectScene,
  selectTrace,
  selectWalkthroughStep,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { lbTargetHealth } from '../traceView';
import { ClientShape } from './ClientShape';
import { Edges } from './Edges';
import { layout } from './layout';
import { LbBox } from './LbBox';
import { NodeBox } from './NodeBox';
import { PacketMarker } from './PacketMarker';
import './topology.css';

/** The drawing's own coordinate system; the SVG scales to its container. */
export const VIEW_W = 900;
export const VIEW_H = 360;

const NO_FOCUS: readonly Focus[] = [];

function ruleCounts(rs: ModeRuleset | undefined) {
  if (!rs) return undefined;
  return { mode: rs.mode, rules: rs.lines.filter((l) => l.ruleId !== undefined).length };
}

/** The topology: client → cloud load balancer → the cluster's nodes, and the packet. */
export function Topology() {
  const store = useAppStoreApi();
  const result = useAppStore(selectResult);
  const scene = useAppStore(selectScene);
  const trace = useAppStore(selectTrace);
  const { stepIndex, speed } = useAppStore(selectPlayback);
  const story = useAppStore(selectWalkthroughStep);
  const cluster = result?.cluster;
  const l = useMemo(
    () => cluster && layout(cluster, VIEW_W, VIEW_H, scene.client),
    [cluster, scene.client],
  );
  const health = useMemo(() => lbTargetHealth(result?.lbTargets ?? []), [result]);
  if (!cluster || !l)
    return <p className="empty">No topology: the scenario could not be resolved.</p>;

  const service =
    cluster.services.find((s) => `${s.namespace}/${s.name}` === result.serviceKey) ??
    cluster.services[0];
  const nodePort = service?.ports[0]?.nodePort ?? 0;
  const client = cluster.clients.find((c) => c.name === scene.client);
  const focus = (story !== null && DEFAULT_WALKTHROUGH.steps[story]?.focus) || NO_FOCUS;
  const step = trace.steps[stepIndex];
  const firstPacket = trace.steps[0]?.before;

  return (
    <svg
      className="topology"
      viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
      role="group"
      aria-label="Topology: client, cloud load balancer, cluster nodes and pods"
      data-testid="topology"
    >
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" className="arrow-head" />
        </marker>
        <pattern
          id="hatch"
          width="8"
          height="8"
          patternUnits="userSpaceOnUse"
          patternTransform="rotate(45)"
        >
          <line x1="0" y1="0" x2="0" y2="8" className="hatch-line" />
        </pattern>
      </defs>
      <rect
        className="cluster-frame"
        x={l.cluster.x}
        y={l.cluster.y}
        width={l.cluster.w}
        height={l.cluster.h}
        rx={12}
      />
      <text
        className="cluster-label"
        x={l.cluster.x + l.cluster.w - 10}
        y={l.cluster.y + l.cluster.h - 8}
        textAnchor="end"
      >
        {`Kubernetes cluster · Service ${service ? `${service.namespace}/${service.name}` : '—'} · ClusterIP ${service?.clusterIP ?? '—'}`}
      </text>
      {l.nodes.map((n) => (
        <rect
          key={n.name}
          className={`node-backdrop${scene.failedNodes.includes(n.name) ? ' failed' : ''}`}
          x={n.box.x}
          y={n.box.y}
          width={n.box.w}
          height={n.box.h}
          rx={8}
        />
      ))}
      <Edges layout={l} trace={trace} stepIndex={stepIndex} />
      <ClientShape layout={l} client={client} />
      <LbBox
        layout={l}
        service={service}
        scene={scene}
        health={health}
        nodePort={nodePort}
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
            unnoticed={scene.downNodes?.includes(n.name) === true}
            nodePort={nodePort}
            client={client}
            activePlace={step?.to}
            focusNodePorts={focus.includes('nodeports')}
            focusKubeProxy={focus.includes('endpoint-decision')}
            ruleCounts={ruleCounts(result.rules[n.name])}
            onToggle={() => run(store, toggleNodeFailure(n.name))}
          />
        );
      })}
      {step ? (
        <PacketMarker
          layout={l}
          moveKey={step.id}
          from={step.from}
          to={step.to}
          packet={step.after}
          changed={step.changed}
          speed={speed}
        />
      ) : (
        firstPacket && (
          <PacketMarker
            layout={l}
            moveKey="start"
            from="client"
            to="client"
            packet={firstPacket}
            changed={[]}
            speed={speed}
          />
        )
      )}
    </svg>
  );
}
