import type { Candidate } from '../../model/trace/types';
import type { ServiceModel } from '../../model/scenario/cluster';
import type { SceneOptions } from '../../model/scenario/scene';
import type { TopologyLayout } from './layout';

interface LbBoxProps {
  layout: TopologyLayout;
  service: ServiceModel | undefined;
  scene: SceneOptions;
  health: Record<string, Candidate>;
  nodePort: number;
  focusStatus: boolean;
  focusDecision: boolean;
}

function healthMark(c: Candidate | undefined): string {
  if (!c) return '—';
  return c.eligible ? '✓ passing' : '✗ failing';
}

/** The cloud load balancer: its published address, ipMode, delivery and each target's health. */
export function LbBox({
  layout: l,
  service,
  scene,
  health,
  nodePort,
  focusStatus,
  focusDecision,
}: LbBoxProps) {
  const { x, y, w, h } = l.lb;
  const ingress = service?.ingress[0];
  const port = service?.ports[0]?.port ?? 80;
  return (
    <g className={`lb${focusDecision ? ' focus' : ''}`} data-place="lb">
      <rect className="box lb-frame" x={x} y={y} width={w} height={h} rx={8} />
      <text className="title" x={x + 8} y={y + 18}>
        Load balancer
      </text>
      <g className={focusStatus ? 'focus-ring' : undefined}>
        <text className={`detail mono${ingress ? '' : ' pending'}`} x={x + 8} y={y + 36}>
          {ingress ? `${ingress.ip}:${port}` : 'EXTERNAL-IP <pending>'}
        </text>
      </g>
      <text className="detail" x={x + 8} y={y + 52}>
        {scene.ipMode === 'Proxy'
          ? `ipMode: Proxy → :${nodePort}`
          : `ipMode: VIP → ${scene.delivery === 'NodePort' ? `:${nodePort}` : 'LB IP'}`}
      </text>
      <text className="detail muted" x={x + 8} y={y + 68}>
        health checks
      </text>
      {l.nodes.map((n) => {
        const exit = l.lbExits[n.name];
        if (!exit) return null;
        const c = health[n.name];
        return (
          <text
            key={n.name}
            className={`detail small${c && !c.eligible ? ' unhealthy' : ''}`}
            x={x + 8}
            y={exit.y + 4}
          >
            <title>{`${n.name}: ${c ? c.status : 'no health check result in this trace'}`}</title>
            {`${n.name} ${healthMark(c)}`}
          </text>
        );
      })}
    </g>
  );
}
