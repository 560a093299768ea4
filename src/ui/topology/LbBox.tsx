import type { Candidate } from '../../model/trace/types';
import type { ServiceModel } from '../../model/scenario/cluster';
import type { SceneOptions } from '../../model/scenario/scene';
import type { TopologyLayout } from './layout';
import { shortName } from '../traceView';

interface LbBoxProps {
  layout: TopologyLayout;
  service: ServiceModel | undefined;
  scene: SceneOptions;
  health: Record<string, Candidate>;
  nodePort: number;
  focusStatus: boolean;
  focusDecision: boolean;
}

/**
 * A target's mark. With a timeline's rotation (`scene.choices.rotation`) the balancer's own
 * state is shown — a node not yet probed, or not yet past the healthy threshold, is out of
 * rotation without failing anything; otherwise the health check's result now.
 */
function healthMark(c: Candidate | undefined, rotation: boolean): string {
  if (!c) return '—';
  if (rotation) return c.eligible ? '● in rotation' : '○ out of rotation';
  return c.eligible ? '✓ passing' : '✗ failing';
}

/** Advance of an 11 px character in the balancer's lines (DejaVu Sans, measured: 6.6 px). */
const LINE_CHAR_W = 6.6;

/**
 * One target's line, `name mark`, kept inside a box `boxW` wide: the name is shortened (its
 * end kept) to what the mark leaves, and a long rotation mark becomes `○ out` / `● in` when the
 * name would otherwise keep fewer than eight characters.
 */
export function targetLine(
  name: string,
  c: Candidate | undefined,
  rotation: boolean,
  boxW: number,
): string {
  const budget = Math.floor((boxW - 16) / LINE_CHAR_W);
  let mark = healthMark(c, rotation);
  if (rotation && c && budget - mark.length - 1 < Math.min(8, name.length))
    mark = c.eligible ? '● in' : '○ out';
  return `${shortName(name, Math.max(6, Math.min(12, budget - mark.length - 1)))} ${mark}`;
}

/**
 * Where the balancer sends a connection: ipMode Proxy always opens its own connection to the
 * NodePort; under VIP the delivery setting says whether it rewrites the destination to the
 * NodePort or keeps the load-balancer address.
 */
function deliveryText(
  ipMode: 'VIP' | 'Proxy',
  delivery: SceneOptions['delivery'],
  nodePort: number,
  address: string,
): string {
  if (ipMode === 'Proxy') return `proxies to NodePort :${nodePort}`;
  return delivery === 'NodePort' ? `delivers to NodePort :${nodePort}` : `delivers to ${address}`;
}

/**
 * The cloud load balancer: its published address, ipMode, where it delivers and each target's
 * health. While status.loadBalancer is empty the balancer is still being provisioned: there
 * is no address, no ingress entry (so no ipMode) and nothing to health-check yet.
 */
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
  const address = ingress ? `${ingress.ip}:${port}` : '';
  return (
    <g
      className={`lb${focusDecision ? ' focus' : ''}`}
      data-place="lb"
      data-lb-state={ingress ? 'published' : 'pending'}
    >
      <rect className="box lb-frame" x={x} y={y} width={w} height={h} rx={8} />
      <text className="title" x={x + 8} y={y + 18}>
        Load balancer
      </text>
      <g className={focusStatus ? 'focus-ring' : undefined}>
        <text className={`detail mono${ingress ? '' : ' pending'}`} x={x + 8} y={y + 35}>
          {ingress ? address : 'EXTERNAL-IP <pending>'}
        </text>
      </g>
      {ingress ? (
        <>
          <text className="detail" x={x + 8} y={y + 51} data-lb-line="ipmode">
            {`ipMode: ${ingress.ipMode}`}
          </text>
          <text className="detail small" x={x + 8} y={y + 66} data-lb-line="delivery">
            {deliveryText(ingress.ipMode, scene.delivery, nodePort, address)}
          </text>
          <text className="detail muted small" x={x + 8} y={y + 84}>
            health checks
          </text>
          {l.nodes.map((n) => {
            const exit = l.lbExits[n.name];
            if (!exit) return null;
            const c = health[n.name];
            const line = targetLine(n.name, c, scene.choices.rotation !== undefined, l.lb.w);
            return (
              <text
                key={n.name}
                className={`detail small${c && !c.eligible ? ' unhealthy' : ''}`}
                x={x + 8}
                y={exit.y + 4}
              >
                <title>{`${n.name}: ${c ? c.status : 'no health check result in this trace'}`}</title>
                {line}
              </text>
            );
          })}
        </>
      ) : (
        <>
          <text className="detail small" x={x + 8} y={y + 53} data-lb-line="provisioning">
            being provisioned:
          </text>
          <text className="detail small" x={x + 8} y={y + 67}>
            no address yet
          </text>
          <text className="detail muted small" x={x + 8} y={y + 84}>
            no health checks yet
          </text>
        </>
      )}
    </g>
  );
}
