import type { KeyboardEvent } from 'react';
import type { Candidate } from '../../model/trace/types';
import type { ClientModel, ClusterNode } from '../../model/scenario/cluster';
import type { NodeLayout } from './layout';
import { Rect, SlotText } from './SlotText';

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
  /** The place the packet is at or heading to (its box is highlighted). */
  activePlace: string | undefined;
  /** The balancer's view of this node (undefined: no balancer). */
  target: Candidate | undefined;
  /** Label the balancer state as "in/out of rotation" (a timeline) rather than the check's result. */
  rotation: boolean;
  /** Draw the rotation badge (the time view draws its own). */
  rotationBadge: boolean;
  /** DNAT / SNAT done on this node so far in the trace. */
  nat: { dnat: boolean; snat: boolean };
  focusNodePorts: boolean;
  focusKubeProxy: boolean;
  /** How many rules kube-proxy wrote on this node. */
  ruleCounts: { mode: string; rules: number } | undefined;
  hatch: string;
  onToggle: () => void;
}

/** Enter or Space on a focused element runs `act` (the element is a button). */
export function pressKeys(act: () => void) {
  return (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      act();
    }
  };
}

/**
 * One node: name, InternalIP and status, its NodePort badge on the top edge where the wire
 * comes in, the balancer's view of it, kube-proxy (with DNAT/SNAT badges when it rewrote the
 * packet), a host client, and its Pods. Clicking it (or Enter/Space) fails or restores it. A
 * failed node is hatched AND red-dashed AND labelled "✗ down"; an out-of-rotation node has a
 * dashed frame and a "○ out of rotation" badge: colour is never the only signal.
 */
export function NodeBox(props: NodeBoxProps) {
  const { node, box: l, failed, client, activePlace, target } = props;
  const { x, y, w, h } = l.box;
  const status = props.unnoticed ? '✗ down' : node.ready && !failed ? '✓ Ready' : '✗ NotReady';
  const down = failed || props.unnoticed === true;
  const out = target !== undefined && !target.eligible;
  const rotText = !target ? '' : target.eligible ? '● in rotation' : '○ out of rotation';
  const downTitle =
    node.apiReady === false
      ? `${node.name} is down, and the node lifecycle controller has noticed: its Node reads Ready Unknown (NotReady)`
      : `${node.name} is down, but the control plane has not noticed yet: its Node still reads Ready until node-monitor-grace-period passes`;
  const mode = props.ruleCounts?.mode ?? 'iptables';
  // No count yet: the worker counts a node's rules after its answer (src/worker/handler.ts).
  const rules = props.ruleCounts ? `${props.ruleCounts.rules} rules` : 'counting rules…';
  const ruleText = l.kpMode ? rules : `${mode} · ${rules}`;
  return (
    <g
      className={`node${failed ? ' failed' : ''}${node.ready ? '' : ' not-ready'}${out ? ' out' : ''}`}
      onClick={props.onToggle}
      data-place={`node:${node.name}`}
      data-node-failed={failed}
      data-rotation={target ? (target.eligible ? 'in' : 'out') : undefined}
    >
      <rect
        className="node-focus-ring"
        x={x - 5}
        y={y - 5}
        width={w + 10}
        height={h + 10}
        rx={11}
        aria-hidden="true"
      />
      {failed && <Rect className="node-hatch" box={l.box} rx={8} fill={`url(#${props.hatch})`} />}
      <rect className="box node-frame" x={x} y={y} width={w} height={h} rx={8} />
      {/* The node's name is its button (the whole card takes clicks): a button wrapping the
          card's text would be named with less than it shows (WCAG 2.5.3, label in name). */}
      <SlotText
        className="title"
        at={l.title}
        text={node.name}
        tip={node.name}
        role="button"
        tabIndex={0}
        aria-pressed={down}
        aria-label={`${node.name}, ${props.unnoticed ? `down (its Node reads ${node.apiReady === false ? 'NotReady' : 'Ready'})` : status.slice(2)}${out ? ', out of rotation' : ''}${failed ? ', down: restore this node' : down ? ': restore this node' : ': fail this node'}`}
        onKeyDown={pressKeys(props.onToggle)}
      />
      <SlotText className="detail" at={l.ip} text={node.internalIP} />
      {failed ? (
        <g className="down-label">
          <title>{`${node.name} is down (NotReady): it answers nothing, not even health checks`}</title>
          <Rect box={l.status.box} rx={5} />
          <SlotText at={{ ...l.status.text, anchor: 'middle' }} text="✗ down" />
        </g>
      ) : (
        <SlotText
          className={`status${node.ready && !props.unnoticed ? ' ok' : ' bad'}`}
          at={l.status.text}
          text={status}
          tip={props.unnoticed ? downTitle : undefined}
        />
      )}
      <g className={`nodeport${props.focusNodePorts ? ' focus-ring' : ''}`}>
        <Rect box={l.nodePort.box} rx={10} />
        <SlotText at={l.nodePort.text} text={`NodePort :${props.nodePort}`} />
      </g>
      {props.rotationBadge && target && (
        <g className={`rotation-badge ${target.eligible ? 'in' : 'out'}`}>
          <title>{`${node.name}: ${target.status}`}</title>
          <Rect box={{ ...l.rotation.box, w: Math.min(l.rotation.box.w, l.box.w - 20) }} rx={10} />
          <SlotText at={l.rotation.text} text={rotText} />
        </g>
      )}
      <g
        className={`kube-proxy${props.focusKubeProxy ? ' focus-ring' : ''}${activePlace === `node:${node.name}` ? ' active' : ''}`}
      >
        <Rect className="box" box={l.kubeProxy} rx={6} />
        <SlotText at={l.kpTitle} text="kube-proxy" />
        {l.kpMode && <SlotText className="muted" at={l.kpMode} text={mode} />}
        {!props.nat.dnat && !props.nat.snat && (
          <SlotText className="muted" at={l.kpRules} text={ruleText} />
        )}
        {props.nat.dnat && (
          <g className="nat-badge dnat" data-nat="DNAT">
            <Rect box={l.dnat.box} rx={10} />
            <SlotText at={{ ...l.dnat.text, anchor: 'middle' }} text="DNAT" />
          </g>
        )}
        {props.nat.snat && (
          <g className="nat-badge snat" data-nat="SNAT">
            <Rect box={l.snat.box} rx={10} />
            <SlotText at={{ ...l.snat.text, anchor: 'middle' }} text="SNAT" />
          </g>
        )}
      </g>
      {l.host && (
        <g
          className={`host-client${activePlace === 'client' ? ' active' : ''}`}
          data-place="client"
        >
          <Rect className="box" box={l.host.box} rx={6} />
          <SlotText at={l.host.text} text={`client · ${client?.address ?? ''}`} />
        </g>
      )}
      {l.pods.map((p) => {
        const isClient = client?.location === 'Pod' && client.pod === p.key;
        const name = `${isClient ? 'client · ' : ''}${p.pod.name}`;
        return (
          <g
            key={p.key}
            className={`pod${p.ip ? '' : ' compact'}${p.pod.ready ? '' : ' not-ready'}${activePlace === `pod:${p.key}` ? ' active' : ''}`}
            data-place={`pod:${p.key}`}
          >
            <title>{`${name} · ${p.pod.ip} · ${p.pod.ready ? 'Ready' : 'not Ready'}`}</title>
            <Rect className="box" box={p.box} rx={6} />
            <SlotText at={p.name} text={name} tip="" />
            {p.ip && <SlotText className="detail" at={p.ip} text={p.pod.ip} />}
            <SlotText
              className={p.pod.ready ? 'ok' : 'bad'}
              at={p.ready}
              text={
                p.ready.w >= 40
                  ? p.pod.ready
                    ? '✓ Ready'
                    : '✗ not Ready'
                  : p.pod.ready
                    ? '✓'
                    : '✗'
              }
            />
          </g>
        );
      })}
      {l.morePods && (
        <g
          className={`pod more${l.morePods.keys.some((k) => activePlace === `pod:${k}`) ? ' active' : ''}`}
          data-more-pods={l.morePods.keys.length}
        >
          <title>
            {l.morePods.keys
              .slice(0, 50)
              .map((k) => k.split('/')[1] ?? k)
              .join(', ')}
          </title>
          <Rect className="box" box={l.morePods.box} rx={5} />
          <SlotText
            at={l.morePods.text}
            text={`+${l.morePods.keys.length} Pod${l.morePods.keys.length === 1 ? '' : 's'}`}
          />
        </g>
      )}
    </g>
  );
}
