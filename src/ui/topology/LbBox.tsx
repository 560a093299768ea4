import type { Candidate } from '../../model/trace/types';
import type { LoadBalancerImplementation } from '../../model/k8s/objects';
import { implementationName, isMetalLB } from '../../model/cloud/replyRoute';
import type { LoadBalancerModel, ServiceModel } from '../../model/scenario/cluster';
import { ingressHostname } from '../../model/scenario/cluster';
import { serviceExternalIP } from '../../model/k8s/kubectlColumns';
import type { SceneOptions } from '../../model/scenario/scene';
import type { TopologyLayout } from './layout';
import { Rect, SlotText } from './SlotText';
import { textWidth } from './text';
import type { TextSlot } from './text';
import { shortName } from '../traceView';

interface LbBoxProps {
  layout: TopologyLayout;
  service: ServiceModel | undefined;
  /** The Service's balancer, for the address its DNS name resolves to (hostname-only ingress). */
  balancer?: LoadBalancerModel | undefined;
  scene: SceneOptions;
  health: Record<string, Candidate>;
  nodePort: number;
  /** What the balancer is (NAT, direct server return, MetalLB): its title and marks say so. */
  implementation: LoadBalancerImplementation;
  /** Counts of the folded nodes for the summary row. */
  fold: { count: number; eligible: number; failing: number } | undefined;
  focusStatus: boolean;
  focusDecision: boolean;
}

/**
 * A target's mark. With a timeline's rotation (`scene.choices.rotation`) the balancer's own
 * state is shown — a node not yet probed, or not yet past the healthy threshold, is out of
 * rotation without failing anything; otherwise the health check's result now.
 */
function healthMark(
  c: Candidate | undefined,
  rotation: boolean,
  impl: LoadBalancerImplementation = 'NAT',
): string {
  if (!c) return '—';
  // MetalLB checks nothing: a node holds the address (answers ARP / is a BGP next hop) or not.
  if (impl === 'MetalLB-L2') return c.eligible ? '● answers ARP' : '○';
  if (impl === 'MetalLB-BGP') return c.eligible ? '● next hop' : '○';
  if (rotation) return c.eligible ? '● in rotation' : '○ out of rotation';
  return c.eligible ? '✓ passing' : '✗ failing';
}

/**
 * One target's line, `name mark`, kept inside `w` px of 12 px text: the name is shortened
 * (its end kept) to what the mark leaves, and a long rotation mark becomes `○ out` / `● in`
 * when the name would otherwise keep fewer than eight characters.
 */
export function targetLine(
  name: string,
  c: Candidate | undefined,
  rotation: boolean,
  w: number,
  impl: LoadBalancerImplementation = 'NAT',
): string {
  const fits = (s: string) => textWidth(s, 12) <= w;
  let mark = healthMark(c, rotation, impl);
  if (rotation && c && !fits(`${name.slice(0, 8)}… ${mark}`)) mark = c.eligible ? '● in' : '○ out';
  for (let keep = name.length; keep >= 4; keep--) {
    const line = `${shortName(name, keep)} ${mark}`;
    if (fits(line)) return line;
  }
  return `${shortName(name, 4)} ${mark}`;
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
  impl: LoadBalancerImplementation,
): string {
  if (isMetalLB(impl)) return 'no balancer on the path';
  if (ipMode === 'Proxy') return `proxies to NodePort :${nodePort}`;
  return delivery === 'NodePort' ? `delivers to NodePort :${nodePort}` : `delivers to ${address}`;
}

/**
 * A DNS name shortened to `w` px of text like `slot`'s: its first four characters, `…`, and as
 * much of its end as fits (`a4f3….elb.amazonaws.com`), so the provider's domain
 * stays readable; the whole name when it fits.
 */
export function fitHostname(text: string, slot: TextSlot): string {
  const fits = (t: string) => textWidth(t, slot.size, slot.bold, slot.mono) <= slot.w;
  if (fits(text)) return text;
  const head = text.slice(0, 4);
  for (let tail = text.length - 5; tail >= 4; tail--) {
    const t = `${head}…${text.slice(text.length - tail)}`;
    if (fits(t)) return t;
  }
  return `${head}…`;
}

/**
 * The cloud load balancer: its published address, ipMode, where it delivers and the health of
 * each drawn node, plus one row for the folded ones. While status.loadBalancer is empty the
 * balancer is still being provisioned: no address, no ipMode, nothing health-checked yet.
 */
export function LbBox({
  layout: l,
  service,
  balancer,
  scene,
  health,
  nodePort,
  implementation: impl,
  fold,
  ...focus
}: LbBoxProps) {
  const ingress = service?.ingress[0];
  const metallb = isMetalLB(impl);
  // AWS's balancers publish a DNS name only: kube-proxy has no rule for it, and the balancer
  // can only target NodePorts (see resolve.ts deliverHostnameBalancersToNodePorts).
  const hostname = service && !ingress ? ingressHostname(service) : undefined;
  const published = ingress !== undefined || hostname !== undefined;
  const port = service?.ports[0]?.port ?? 80;
  const address = ingress
    ? `${ingress.ip}:${port}`
    : hostname !== undefined
      ? hostname // the port goes on the DNS line: the name is long enough alone
      : '';
  const resolved = balancer?.address ? balancer.address : undefined;
  const [title, addr, mode, delivery, heading] = l.lb.header;
  const rotation = scene.choices.rotation !== undefined;
  return (
    <g
      className={`lb${focus.focusDecision ? ' focus' : ''}${metallb ? ' no-balancer' : ''}`}
      data-place="lb"
      data-lb-state={published ? 'published' : 'pending'}
      data-implementation={impl}
    >
      <Rect className="box lb-frame" box={l.lb.box} rx={8} />
      {title && (
        <SlotText
          className="title"
          at={title}
          text={
            impl === 'MetalLB-L2'
              ? 'MetalLB layer 2'
              : impl === 'MetalLB-BGP'
                ? 'MetalLB BGP'
                : `Load balancer · ${implementationName(impl)}`
          }
          tip={
            impl === 'NAT'
              ? 'A NAT balancer (like AWS NLB with instance targets): the reply returns through it'
              : impl === 'DirectServerReturn'
                ? 'Direct server return (like Google Cloud’s passthrough Network Load Balancer): the node answers the client itself'
                : impl === 'MetalLB-L2'
                  ? 'MetalLB layer 2: no balancer; one node answers ARP for the address and answers the client'
                  : 'MetalLB BGP: no balancer; a router routes each connection to an announcing node, which answers the client'
          }
        />
      )}
      <g className={focus.focusStatus ? 'focus-ring' : undefined}>
        {addr && (
          <SlotText
            className={published ? 'detail' : 'pending'}
            at={addr}
            text={
              !published
                ? `EXTERNAL-IP ${service ? serviceExternalIP(service) : '<pending>'}`
                : hostname !== undefined
                  ? fitHostname(address, addr)
                  : address
            }
            {...(hostname !== undefined
              ? {
                  tip: `EXTERNAL-IP ${hostname}: a DNS name${resolved ? ` that resolves to ${resolved}` : ''}; the client dials port ${port} there`,
                }
              : {})}
            data-lb-line="address"
          />
        )}
      </g>
      {published ? (
        <>
          {mode &&
            (ingress ? (
              <SlotText at={mode} text={`ipMode: ${ingress.ipMode}`} data-lb-line="ipmode" />
            ) : (
              <SlotText
                at={mode}
                text={resolved ? `DNS → ${resolved}:${port}` : 'DNS name, no IP'}
                tip="The balancer published a DNS name and no IP, so there is no ipMode (the API allows it only with ip) and kube-proxy writes no rule for the balancer's address"
                data-lb-line="dns"
              />
            ))}
          {delivery && (
            <SlotText
              at={delivery}
              text={
                ingress
                  ? deliveryText(ingress.ipMode, scene.delivery, nodePort, address, impl)
                  : `delivers to NodePort :${nodePort}`
              }
              data-lb-line="delivery"
            />
          )}
          {heading && (
            <SlotText
              className="muted"
              at={heading}
              text={
                impl === 'MetalLB-L2'
                  ? 'who answers ARP'
                  : impl === 'MetalLB-BGP'
                    ? 'BGP next hops'
                    : 'health checks'
              }
            />
          )}
          {l.lb.rows.map((r) => {
            const c = health[r.name];
            return (
              <SlotText
                key={r.name}
                className={c && !c.eligible ? (metallb ? 'muted' : 'unhealthy') : undefined}
                at={r.text}
                text={targetLine(r.name, c, rotation && !metallb, r.text.w, impl)}
                tip={`${r.name}: ${c ? c.status : 'no health check result in this trace'}`}
                data-lb-line="target"
              />
            );
          })}
          {l.lb.foldRow && fold && metallb && (
            <SlotText
              className="muted"
              at={l.lb.foldRow.text}
              text={`+${fold.count} more: ${fold.eligible} ●`}
              tip={`${fold.count} more nodes: ${fold.eligible} ${impl === 'MetalLB-L2' ? 'answer ARP for the address' : 'are BGP next hops'}`}
              data-lb-line="folded"
            />
          )}
          {l.lb.foldRow && fold && !metallb && (
            <SlotText
              className={fold.failing ? 'unhealthy' : 'muted'}
              at={l.lb.foldRow.text}
              text={`+${fold.count} more: ${fold.eligible} ${rotation ? '●' : '✓'}${fold.failing ? ` ${fold.failing} ${rotation ? '○' : '✗'}` : ''}`}
              tip={`${fold.count} more nodes: ${fold.eligible} ${rotation ? 'in rotation' : 'passing'}, ${fold.failing} ${rotation ? 'out of rotation' : 'failing'}`}
              data-lb-line="folded"
            />
          )}
        </>
      ) : (
        <>
          {mode && <SlotText at={mode} text="being provisioned:" data-lb-line="provisioning" />}
          {delivery && <SlotText at={delivery} text="no address yet" />}
          {heading && <SlotText className="muted" at={heading} text="no health checks yet" />}
        </>
      )}
    </g>
  );
}
