import type { ControllerKind } from '../../model/time/types';
import type { ProvisioningStage, StageId } from './provisioning';
import { seconds } from './format';

interface Props {
  controller: ControllerKind;
  stages: readonly ProvisioningStage[];
  /** The stage reached last at the current time. */
  current: ProvisioningStage | null;
  /** MetalLB: the node whose speaker answers ARP now. */
  announcingNode: string | null;
  /** The clock, simulated ms: an arrow moves only for a while after its stage began. */
  simMs: number;
}

/** How long after its stage began an arrow is drawn as moving, simulated ms. */
const ACTIVE_MS = 10_000;

const W = 900;
const H = 84;

/** Which arrow carries which stage. */
const ARROW_OF: Partial<Record<StageId, string>> = {
  noticed: 'watch',
  building: 'ensure',
  registered: 'targets',
  healthy: 'targets',
  published: 'status',
};

function boxNames(controller: ControllerKind, announcing: string | null): [string, string, string] {
  switch (controller) {
    case 'cloud':
      return ['API server', 'cloud-controller-manager', 'cloud load balancer'];
    case 'metallb-l2':
      return [
        'API server',
        'MetalLB controller',
        `MetalLB speaker${announcing ? ` (${announcing})` : ''}`,
      ];
    case 'none':
      return ['API server', 'no LoadBalancer controller', 'no cloud'];
  }
}

/**
 * The control plane above the topology: API server → controller → cloud, with the arrow of the
 * current provisioning stage drawn as moving (still under reduced motion) and the stages
 * listed below it with their simulated times, the current one marked by text as well as colour.
 */
export function ControlPlaneStrip({ controller, stages, current, announcingNode, simMs }: Props) {
  const [api, ctl, cloud] = boxNames(controller, announcingNode);
  const live = current !== null && current.at !== null && simMs - current.at < ACTIVE_MS;
  const active = current && live ? ARROW_OF[current.id] : undefined;
  const none = controller === 'none';
  const box = (x: number, w: number, name: string, on: boolean, off = false) => (
    <g className={`cp-box${on ? ' on' : ''}${off ? ' off' : ''}`}>
      <rect x={x} y={6} width={w} height={34} rx={7} />
      <text x={x + w / 2} y={28} textAnchor="middle">
        {name}
      </text>
    </g>
  );
  const arrow = (id: string, d: string, label: string, lx: number, ly: number) => (
    <g className={`cp-arrow${active === id ? ' on' : ''}`} data-arrow={id}>
      <path d={d} markerEnd="url(#cp-head)" />
      <text x={lx} y={ly} textAnchor="middle">
        {label}
      </text>
    </g>
  );
  const currentBox = current?.box;
  return (
    <div className="cp-strip" data-testid="control-plane" data-stage={current?.id ?? 'none'}>
      <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true" className="cp-drawing">
        <defs>
          <marker
            id="cp-head"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerUnits="userSpaceOnUse"
            markerWidth="9"
            markerHeight="9"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" className="cp-head" />
          </marker>
        </defs>
        {box(10, 190, api, currentBox === 'api-server')}
        {box(330, 240, ctl, currentBox === 'controller', none)}
        {box(700, 190, cloud, currentBox === 'cloud', none)}
        {!none && arrow('watch', 'M 200 17 L 328 17', 'watch: Service added', 265, 12)}
        {!none && arrow('status', 'M 330 34 L 202 34', 'patch status', 265, 50)}
        {!none &&
          arrow(
            'ensure',
            'M 570 23 L 698 23',
            controller === 'metallb-l2' ? 'assign an IP' : 'EnsureLoadBalancer',
            635,
            17,
          )}
        {!none &&
          arrow(
            'targets',
            'M 795 40 L 795 78',
            controller === 'metallb-l2' ? 'ARP: who has the address?' : 'targets · health checks',
            700,
            66,
          )}
      </svg>
      <ol className="cp-stages" aria-label="Provisioning">
        {stages.map((s, i) => {
          const ci = current ? stages.indexOf(current) : -1;
          const isCurrent = i === ci;
          const state = isCurrent ? 'current' : i < ci ? 'done' : s.at === null ? 'never' : 'todo';
          const mark = { current: '▶', done: '✓', never: '—', todo: '·' }[state];
          return (
            <li
              key={s.id}
              className={`cp-stage ${state}`}
              data-stage={s.id}
              data-state={state}
              aria-current={isCurrent ? 'step' : undefined}
              title={s.entry?.message}
            >
              <span aria-hidden="true">{mark}</span> {s.label}{' '}
              <span className="muted">
                {s.at === null
                  ? none && s.id !== 'created'
                    ? '(never)'
                    : '(not in this run)'
                  : `t = ${seconds(s.at)}`}
              </span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
