import type { KeyboardEvent } from 'react';
import type { ClientModel, ClusterNode } from '../../model/scenario/cluster';
import type { NodeLayout } from './layout';
import { shortName } from '../traceView';

interface NodeBoxProps {
  node: ClusterNode;
  box: NodeLayout;
  failed: boolean;
  /**
   * Down in a timeline before the control plane noticed (`scene.downNodes`): the machine
   * answers nothing, but its Node object still says Ready.
   */
  unnoticed?: boolean;
  nodePort: number;
  client: ClientModel | undefined;
  /** The pod place the packet is at or heading to, highlighted. */
  activePlace: string | undefined;
  focusNodePorts: boolean;
  focusKubeProxy: boolean;
  /** How many rules kube-proxy wrote on this node, per table. */
  ruleCounts: { mode: string; rules: number } | undefined;
  onToggle: () => void;
}

/** Width of the "✗ down" badge: its text in a wide bold sans-serif, plus padding. */
const DOWN_W = 58;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * One node: name, InternalIP, its NodePort badge, kube-proxy, a host client if there is one,
 * and its pods. Clicking it (or Enter/Space on it) fails or restores the node. A failed node
 * is greyed AND dashed AND labelled "down", never told by colour alone. Keyboard focus draws
 * its own ring around the node, distinct from the failed styling.
 */
export function NodeBox(props: NodeBoxProps) {
  const { node, box: l, failed, nodePort, client, activePlace } = props;
  const { x, y, w, h } = l.box;
  const chars = Math.floor((w - 24) / 6.4);
  const status = props.unnoticed ? '✗ down' : node.ready && !failed ? '✓ Ready' : '✗ NotReady';
  // Down either way (failed here, or down in a timeline moment): the button restores it.
  const down = failed || props.unnoticed === true;
  const downTitle =
    node.apiReady === false
      ? `${node.name} is down, and the node lifecycle controller has noticed: its Node reads Ready Unknown (NotReady)`
      : `${node.name} is down, but the control plane has not noticed yet: its Node still reads Ready until node-monitor-grace-period passes`;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      props.onToggle();
    }
  };
  return (
    <g
      className={`node${failed ? ' failed' : ''}${node.ready ? '' : ' not-ready'}`}
      role="button"
      tabIndex={0}
      aria-pressed={down}
      aria-label={`${node.name}, ${props.unnoticed ? `down (its Node reads ${node.apiReady === false ? 'NotReady' : 'Ready'})` : status.slice(2)}${failed ? ', down: restore this node' : down ? ': restore this node' : ': fail this node'}`}
      onClick={props.onToggle}
      onKeyDown={onKeyDown}
      data-place={`node:${node.name}`}
      data-node-failed={failed}
    >
      {/* Shown only while the node has keyboard focus: solid, outside the frame, in the focus
          colour, so it never looks like the failed node's red dashed border. */}
      <rect
        className="node-focus-ring"
        x={x - 4}
        y={y - 4}
        width={w + 8}
        height={h + 8}
        rx={11}
        aria-hidden="true"
      />
      <rect className="box node-frame" x={x} y={y} width={w} height={h} rx={8} />
      <text className="title" x={x + 8} y={y + 18}>
        <title>{node.name}</title>
        {shortName(node.name, l.titleChars)}
      </text>
      <text className="detail mono small" x={x + 8} y={y + 33}>
        {node.internalIP}
      </text>
      {failed ? (
        // The "down" badge sits in the header, right of the address, where the Ready status
        // is otherwise shown: it covers nothing below it.
        <g className="down-label">
          <title>{`${node.name} is down (NotReady): it answers nothing, not even health checks`}</title>
          <rect x={x + w - 8 - DOWN_W} y={y + 27} width={DOWN_W} height={17} rx={5} />
          <text x={x + w - 8 - DOWN_W / 2} y={y + 39.5} textAnchor="middle">
            ✗ down
          </text>
        </g>
      ) : (
        <text
          className={`detail small status${node.ready ? '' : ' bad'}`}
          x={x + w - 8}
          y={y + 40}
          textAnchor="end"
        >
          {props.unnoticed && <title>{downTitle}</title>}
          {status}
        </text>
      )}
      <g className={`nodeport${props.focusNodePorts ? ' focus-ring' : ''}`}>
        <rect
          x={l.nodePortBadge.x}
          y={l.nodePortBadge.y}
          width={l.nodePortBadge.w}
          height={l.nodePortBadge.h}
          rx={9}
        />
        <text
          x={l.nodePortBadge.x + l.nodePortBadge.w / 2}
          y={l.nodePortBadge.y + 13}
          textAnchor="middle"
        >
          {`NodePort :${nodePort}`}
        </text>
      </g>
      <g className={`kube-proxy${props.focusKubeProxy ? ' focus-ring' : ''}`}>
        <rect
          className="box"
          x={l.kubeProxy.x}
          y={l.kubeProxy.y}
          width={l.kubeProxy.w}
          height={l.kubeProxy.h}
          rx={6}
        />
        <text className="subtitle" x={l.kubeProxy.x + 8} y={l.kubeProxy.y + 18}>
          kube-proxy ({props.ruleCounts?.mode ?? 'iptables'})
        </text>
        <text className="detail small muted" x={l.kubeProxy.x + 8} y={l.kubeProxy.y + 35}>
          {props.ruleCounts ? `${props.ruleCounts.rules} rules` : 'no rules'}
        </text>
      </g>
      {l.host && (
        <g className="host-client" data-place="client">
          <rect
            className="box"
            x={l.host.x}
            y={l.host.y}
            width={l.host.w}
            height={l.host.h}
            rx={6}
          />
          <text className="detail small" x={l.host.x + 8} y={l.host.y + 19}>
            {clip(`client · ${client?.address ?? ''}`, chars)}
          </text>
        </g>
      )}
      {l.pods.map(({ key, pod, box: b, compact }) => {
        const isClient = client?.location === 'Pod' && client.pod === key;
        const active = activePlace === `pod:${key}`;
        if (compact)
          // One line: the name (shortened in the middle, so the distinguishing suffix stays),
          // the IP when there is room, and ✓/✗ for readiness; the whole in a tooltip.
          return (
            <g
              key={key}
              className={`pod compact${pod.ready ? '' : ' not-ready'}${active ? ' active' : ''}`}
              data-place={`pod:${key}`}
            >
              <title>{`${isClient ? 'client · ' : ''}${pod.name} · ${pod.ip} · ${pod.ready ? 'Ready' : 'not Ready'}`}</title>
              <rect className="box" x={b.x} y={b.y} width={b.w} height={b.h} rx={5} />
              <text className="detail small" x={b.x + 6} y={b.y + 13}>
                {shortName(`${isClient ? 'client · ' : ''}${pod.name}`, compact.nameChars)}
              </text>
              {compact.showIP && (
                <text
                  className="detail mono small"
                  x={b.x + b.w - 20}
                  y={b.y + 13}
                  textAnchor="end"
                >
                  {pod.ip}
                </text>
              )}
              <text
                className={`detail small${pod.ready ? '' : ' bad'}`}
                x={b.x + b.w - 6}
                y={b.y + 13}
                textAnchor="end"
              >
                {pod.ready ? '✓' : '✗'}
              </text>
            </g>
          );
        return (
          <g
            key={key}
            className={`pod${pod.ready ? '' : ' not-ready'}${active ? ' active' : ''}`}
            data-place={`pod:${key}`}
          >
            <rect className="box" x={b.x} y={b.y} width={b.w} height={b.h} rx={6} />
            <text className="detail small" x={b.x + 8} y={b.y + 16}>
              {clip(`${isClient ? 'client · ' : ''}${pod.name}`, chars)}
            </text>
            <text className="detail mono small" x={b.x + 8} y={b.y + 32}>
              {pod.ip}
            </text>
            <text
              className={`detail small${pod.ready ? '' : ' bad'}`}
              x={b.x + b.w - 8}
              y={b.y + 32}
              textAnchor="end"
            >
              {pod.ready ? '✓ Ready' : '✗ not Ready'}
            </text>
          </g>
        );
      })}
      {l.morePods && (
        <g
          className={`pod more${l.morePods.keys.some((k) => activePlace === `pod:${k}`) ? ' active' : ''}`}
          data-more-pods={l.morePods.keys.length}
        >
          <title>{l.morePods.keys.map((k) => k.split('/')[1] ?? k).join(', ')}</title>
          <rect
            className="box"
            x={l.morePods.box.x}
            y={l.morePods.box.y}
            width={l.morePods.box.w}
            height={l.morePods.box.h}
            rx={5}
          />
          <text className="detail small" x={l.morePods.box.x + 6} y={l.morePods.box.y + 13}>
            {`+${l.morePods.keys.length} more Pod${l.morePods.keys.length === 1 ? '' : 's'}`}
          </text>
        </g>
      )}
    </g>
  );
}
