/**
 * Provisioning and publishing: the cloud-controller-manager's service controller
 * (`EnsuringLoadBalancer` → the cloud builds the balancer → targets registered →
 * `EnsuredLoadBalancer`, `status.loadBalancer.ingress` published; on a policy change
 * `ExternalTrafficPolicy`, `HealthCheckNodePort` and the health check's switch), MetalLB layer 2
 * (`IPAllocated`, the announcing speaker and its gratuitous ARP), `kubectl get svc`'s rows, and
 * how the run starts. Actions: `ensuring`, `built`, `registered`, `metallb-assign`,
 * `svc-policy`, `hc-switch`.
 */
import { externalIPColumn } from '../../k8s/kubectlColumns';
import { humanDuration } from '../duration';
import { macOf, metallbLeader } from '../metallb';
import type { SimMs, TimelineEvent } from '../types';
import type { ActionHandlers } from './handlerTypes';
import { scheduleProbes, settleStanding } from './healthChecks';
import { add, addressText, excludedText, portsText } from './messages';
import type { Sim } from './state';
import { nodeOf } from './state';

/** Appends `kubectl get svc`'s row as of `t` (EXTERNAL-IP as published then). */
export function svcRow(sim: Sim, t: SimMs): void {
  const { base } = sim;
  const { hostname, address } = sim.cfg;
  const ports = base.ports
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol}` : `${p.port}/${p.protocol}`))
    .join(',');
  sim.svcRows.push({
    at: t,
    NAME: base.name,
    TYPE: base.type,
    'CLUSTER-IP': base.clusterIP,
    'EXTERNAL-IP': externalIPColumn({
      type: base.type,
      ...(base.externalIPs ? { externalIPs: base.externalIPs } : {}),
      ingress: !sim.lb.published ? [] : hostname !== undefined ? [{ hostname }] : [{ ip: address }],
    }),
    'PORT(S)': ports,
    AGE: humanDuration(t),
  });
}

/** Whether MetalLB's speaker on `n` may announce: alive in memberlist and not excluded by the label. */
function mayAnnounce(sim: Sim, n: string): boolean {
  return (
    sim.speakers.has(n) && (sim.cfg.prov.metallb.ignoreExcludeLb || !nodeOf(sim, n).excludeLabel)
  );
}

/**
 * MetalLB's election after something changed (`why`): the announcing node is the first of the
 * speakers that may announce in `metallbLeader`'s order; a new one sends gratuitous ARP.
 * Nothing happens before the address is published, or without MetalLB.
 */
export function elect(sim: Sim, t: SimMs, why: string): void {
  const { metallb, address, nodeOrder } = sim.cfg;
  const { lb } = sim;
  if (!metallb || !lb.published) return;
  const alive = nodeOrder.filter((n) => mayAnnounce(sim, n));
  const next = metallbLeader(alive, address, sim.kp.policy, sim.kp.endpoints);
  if (next === lb.leader) return;
  const prev = lb.leader;
  lb.leader = next;
  if (prev) {
    sim.rotation.push({
      at: t,
      node: prev,
      inRotation: false,
      reason: `no longer the announcing node (${why})`,
    });
  }
  if (next) {
    sim.rotation.push({ at: t, node: next, inRotation: true, reason: `announcing node (${why})` });
    const ip = sim.nodes.get(next)?.ip ?? '';
    add(
      sim,
      t,
      'k8s-event',
      'metallb-speaker',
      `announcing from node "${next}" with protocol "layer2"`,
      { reason: 'nodeAssigned', node: next },
    );
    add(
      sim,
      t,
      'arp',
      'metallb-speaker',
      `${next}'s speaker sends gratuitous ARP "${address} is-at ${macOf(ip)}" and from now on answers "who-has ${address}" with its own MAC: all traffic for ${address} enters ${next}${prev ? `, no longer ${prev}` : ''} (${why}).`,
      { node: next },
    );
  } else {
    add(
      sim,
      t,
      'note',
      'metallb-speaker',
      `No speaker may announce ${address} (${why}): nothing answers ARP for it, so connections to it time out.`,
    );
  }
}

/** The provisioning and publishing actions. */
export const provisioningActions = {
  ensuring: (sim, _a, t) => {
    add(sim, t, 'k8s-event', 'service-controller', 'Ensuring load balancer', {
      reason: 'EnsuringLoadBalancer',
    });
    add(
      sim,
      t,
      'provisioning',
      'service-controller',
      `The cloud-controller-manager's service controller sees ${sim.base.serviceKey} through its informer, adds the finalizer service.kubernetes.io/load-balancer-cleanup and asks the cloud for a load balancer.`,
    );
    sim.agenda.push(t + sim.cfg.prov.provisionDelayMs, { kind: 'built' });
  },
  built: (sim, _a, t) => {
    const { hc, hcnp, prov } = sim.cfg;
    add(
      sim,
      t,
      'provisioning',
      'cloud',
      `The cloud has built the load balancer: a forwarding rule for ${addressText(sim)} (${sim.base.ports.map((p) => `${p.port}/${p.protocol}`).join(', ')}) and a health check (${sim.lb.hcPolicy === 'Local' ? `http://<node>:${hcnp}/healthz, healthCheckNodePort` : hc.clusterTarget === 'healthz' ? `http://<node>:10256/healthz, kube-proxy` : 'TCP to the NodePort'} every ${hc.intervalSeconds} s, timeout ${hc.timeoutSeconds} s, healthy ${hc.healthyThreshold}, unhealthy ${hc.unhealthyThreshold}).`,
    );
    sim.agenda.push(t + prov.registerDelayMs, { kind: 'registered' });
  },
  registered: (sim, _a, t) => {
    const { hc, hcnp, targets, nodeOrder, hostname, address } = sim.cfg;
    const { lb, base } = sim;
    lb.registered = true;
    lb.registeredAt = t;
    add(
      sim,
      t,
      'provisioning',
      'cloud',
      `Targets registered: ${targets.join(', ') || 'none'} — ${targets.length === nodeOrder.length ? 'every node' : `every node but ${excludedText(sim)}`}, on NodePort ${base.ports[0]?.nodePort ?? 0}${lb.hcPolicy === 'Local' ? `; the health check asks each node's healthCheckNodePort ${hcnp}, so only nodes with a ready local endpoint will get traffic` : ''}. None gets traffic until it passes ${hc.healthyThreshold} health check${hc.healthyThreshold === 1 ? '' : 's'}.`,
    );
    add(sim, t, 'k8s-event', 'service-controller', 'Ensured load balancer', {
      reason: 'EnsuredLoadBalancer',
    });
    lb.published = true;
    add(
      sim,
      t,
      'published',
      'service-controller',
      hostname !== undefined
        ? `status.loadBalancer.ingress[0].hostname = ${hostname}: kubectl get svc now shows EXTERNAL-IP ${hostname}. Clients resolve the name to ${address}, the balancer's own address; kube-proxy writes no rule for it (it makes rules for ingress IPs only), so the balancer delivers to NodePort ${base.ports[0]?.nodePort ?? 0}.`
        : `status.loadBalancer.ingress[0].ip = ${address}: kubectl get svc now shows EXTERNAL-IP ${address}.`,
    );
    svcRow(sim, t);
    scheduleProbes(sim, t);
  },
  'metallb-assign': (sim, _a, t) => {
    const { address, prov } = sim.cfg;
    add(sim, t, 'k8s-event', 'metallb-controller', `Assigned IP ["${address}"]`, {
      reason: 'IPAllocated',
    });
    sim.lb.published = true;
    add(
      sim,
      t,
      'published',
      'metallb-controller',
      `MetalLB's controller takes ${address} from IPAddressPool ${prov.metallb.poolName} (${prov.metallb.poolRange}) and writes status.loadBalancer.ingress[0].ip: EXTERNAL-IP ${address}.`,
    );
    svcRow(sim, t);
    elect(sim, t, 'first announcement');
  },
  'svc-policy': (sim, a, t) => {
    const { hcnp, prov } = sim.cfg;
    add(sim, t, 'k8s-event', 'service-controller', `${a.from} -> ${a.to}`, {
      reason: 'ExternalTrafficPolicy',
    });
    add(
      sim,
      t,
      'k8s-event',
      'service-controller',
      a.to === 'Local' ? `0 -> ${hcnp}` : `${hcnp} -> 0`,
      { reason: 'HealthCheckNodePort' },
    );
    add(sim, t, 'k8s-event', 'service-controller', 'Ensuring load balancer', {
      reason: 'EnsuringLoadBalancer',
    });
    sim.agenda.push(t + prov.registerDelayMs, { kind: 'hc-switch', policy: a.to });
  },
  'hc-switch': (sim, a, t) => {
    const { hc, hcnp } = sim.cfg;
    sim.lb.hcPolicy = a.policy;
    add(
      sim,
      t,
      'provisioning',
      'cloud',
      `The balancer's health check now asks ${a.policy === 'Local' ? `http://<node>:${hcnp}/healthz (healthCheckNodePort)` : hc.clusterTarget === 'healthz' ? 'http://<node>:10256/healthz (kube-proxy)' : 'TCP to the NodePort'}.`,
    );
    add(sim, t, 'k8s-event', 'service-controller', 'Ensured load balancer', {
      reason: 'EnsuredLoadBalancer',
    });
  },
} satisfies Pick<
  ActionHandlers,
  'ensuring' | 'built' | 'registered' | 'metallb-assign' | 'svc-policy' | 'hc-switch'
>;

/** EXTERNAL-IP as kubectl shows it before anything is published. */
function pendingColumn(sim: Sim): string {
  const { base } = sim;
  return externalIPColumn({
    type: base.type,
    ...(base.externalIPs ? { externalIPs: base.externalIPs } : {}),
  });
}

/** MetalLB only: which speakers the exclude label keeps from announcing, said at t = 0. */
function noteExcludedSpeakers(sim: Sim): void {
  const { nodeOrder, prov } = sim.cfg;
  const excluded = nodeOrder.filter((n) => nodeOf(sim, n).excludeLabel);
  if (excluded.length === 0) return;
  add(
    sim,
    0,
    'note',
    'metallb-speaker',
    prov.metallb.ignoreExcludeLb
      ? `${excluded.join(', ')} ${excluded.length === 1 ? 'is' : 'are'} labelled node.kubernetes.io/exclude-from-external-load-balancers, but the speakers run with --ignore-exclude-lb, so ${excluded.length === 1 ? 'it' : 'they'} may announce.`
      : `The speaker on ${excluded.join(', ')} never announces: ${excluded.length === 1 ? 'the node is' : 'the nodes are'} labelled node.kubernetes.io/exclude-from-external-load-balancers, which MetalLB honours unless its speakers run with --ignore-exclude-lb.`,
  );
}

/** A cloud balancer already provisioned when the run starts: registered, published, probed. */
function startProvisioned(sim: Sim): void {
  const { nodeOrder, targets } = sim.cfg;
  const { lb } = sim;
  lb.registered = true;
  lb.registeredAt = 0;
  lb.published = true;
  sim.svcRows.length = 0;
  svcRow(sim, 0);
  settleStanding(sim);
  add(
    sim,
    0,
    'note',
    'balancer',
    `The balancer is already provisioned at ${addressText(sim)}; in rotation: ${nodeOrder.filter((n) => sim.hcState.get(n)?.inRotation).join(', ') || 'none'}${targets.length < nodeOrder.length ? `; not a target: ${excludedText(sim)}` : ''}.`,
  );
  scheduleProbes(sim, 0);
}

/**
 * The run's start at t = 0: the Service's creation (when the run starts with it), the first
 * `kubectl get svc` row, the user's `events` on the agenda, and either the provisioning to come
 * or the balancer as it already stands (cloud: each target's standing; MetalLB: the announcer).
 */
export function startRun(sim: Sim, events: readonly TimelineEvent[]): void {
  const { base } = sim;
  const { prov, controller, metallb, hcnp } = sim.cfg;
  if (metallb && base.type === 'LoadBalancer') noteExcludedSpeakers(sim);
  if (prov.fromCreation) {
    add(
      sim,
      0,
      'event',
      'api-server',
      `Service ${base.serviceKey} created: type ${base.type}, ClusterIP ${base.clusterIP}, ports ${portsText(sim)}${sim.apiPolicy === 'Local' ? `, healthCheckNodePort ${hcnp}` : ''}. status.loadBalancer is empty: EXTERNAL-IP ${pendingColumn(sim)}.`,
    );
  }
  svcRow(sim, 0);
  for (const ev of events) sim.agenda.push(ev.at, { kind: 'user', ev });
  if (base.type !== 'LoadBalancer') {
    add(
      sim,
      0,
      'note',
      'api-server',
      `${base.serviceKey} is type ${base.type}: no controller provisions a load balancer for it (kubectl shows EXTERNAL-IP ${pendingColumn(sim)}).`,
    );
  } else if (controller === 'none') {
    add(
      sim,
      0,
      'note',
      'api-server',
      `No load-balancer controller runs in this cluster (no cloud-controller-manager, no MetalLB): nothing acts on type LoadBalancer, so status.loadBalancer stays empty and EXTERNAL-IP stays <pending> for good. NodePort ${base.ports[0]?.nodePort ?? 0} still answers on every node.`,
    );
  } else if (prov.fromCreation) {
    sim.agenda.push(prov.informerDelayMs, { kind: metallb ? 'metallb-assign' : 'ensuring' });
  } else if (metallb) {
    sim.lb.published = true;
    sim.svcRows.length = 0;
    svcRow(sim, 0);
    elect(sim, 0, 'already announced when the run starts');
  } else {
    startProvisioned(sim);
  }
}
