/**
 * The provisioning chain as the control-plane strip shows it: six stages, each with the time
 * the model's timeline reached it (or null: not in this run). The stages are read from the
 * timeline's entries, rotation and `kubectl get svc` rows; nothing here decides a time.
 */
import type { ControllerKind, SimMs, Timeline, TimelineEntry } from '../../model/time/types';

/** The six stages of the provisioning chain. */
export type StageId = 'created' | 'noticed' | 'building' | 'registered' | 'healthy' | 'published';

/** Which box of the strip a stage belongs to. */
export type StageBox = 'api-server' | 'controller' | 'cloud';

/** One stage of the chain as the strip shows it. */
export interface ProvisioningStage {
  id: StageId;
  /** Short label on the strip. */
  label: string;
  box: StageBox;
  /** When the timeline reached it; null when it never does in this run. */
  at: SimMs | null;
  /** The timeline entry behind it, for its sentence. */
  entry?: TimelineEntry;
}

const LABELS: Record<ControllerKind, Record<StageId, string>> = {
  cloud: {
    created: 'Service created',
    noticed: 'cloud-controller-manager noticed',
    building: 'cloud builds the load balancer',
    registered: 'targets registered',
    healthy: 'health checks passing',
    published: 'status.loadBalancer.ingress published',
  },
  'metallb-l2': {
    created: 'Service created',
    noticed: 'MetalLB controller noticed',
    building: 'address assigned from the pool',
    registered: 'speaker elected for the address',
    healthy: 'node answers ARP',
    published: 'status.loadBalancer.ingress published',
  },
  none: {
    created: 'Service created',
    noticed: 'no controller notices',
    building: 'no load balancer is built',
    registered: 'no targets',
    healthy: 'no health checks',
    published: 'EXTERNAL-IP stays <pending>',
  },
};

const BOX: Record<StageId, StageBox> = {
  created: 'api-server',
  noticed: 'controller',
  building: 'cloud',
  registered: 'cloud',
  healthy: 'cloud',
  published: 'api-server',
};

const first = (
  entries: readonly TimelineEntry[],
  test: (e: TimelineEntry) => boolean,
  after: SimMs = 0,
): TimelineEntry | undefined => entries.find((e) => e.at >= after && test(e));

/**
 * The six stages with their times, for the run's controller, in the order the model reached
 * them (stages it never reached last). Under a cloud controller the model publishes the
 * address when the targets are registered, and health checks pass after that.
 */
export function provisioningStages(timeline: Timeline): ProvisioningStage[] {
  const controller = timeline.settings.provisioning.controller;
  const { entries } = timeline;
  const published = first(entries, (e) => e.kind === 'published');
  const created = entries[0]?.at === 0 ? entries[0] : undefined;
  const joined = timeline.rotation.find((r) => r.inRotation);
  const joinedEntry = joined
    ? first(entries, (e) => e.kind === 'rotation' && e.node === joined.node, joined.at)
    : undefined;
  const found: Partial<Record<StageId, TimelineEntry | undefined>> = { created, published };
  if (controller === 'cloud') {
    found.noticed = first(entries, (e) => e.reason === 'EnsuringLoadBalancer');
    found.building = first(
      entries,
      (e) => e.kind === 'provisioning' && e.actor === 'service-controller',
    );
    found.registered =
      first(entries, (e) => e.kind === 'provisioning' && /^Targets registered/.test(e.message)) ??
      published;
    found.healthy = joinedEntry;
  } else if (controller === 'metallb-l2') {
    const allocated = first(entries, (e) => e.reason === 'IPAllocated');
    found.noticed = allocated;
    found.building = allocated;
    found.registered = first(
      entries,
      (e) => e.actor === 'metallb-speaker' && e.kind === 'k8s-event',
    );
    found.healthy = first(entries, (e) => e.kind === 'arp') ?? found.registered;
  }
  const order: StageId[] = ['created', 'noticed', 'building', 'registered', 'healthy', 'published'];
  const stages = order.map((id): ProvisioningStage => {
    const entry = found[id];
    return {
      id,
      label: LABELS[controller][id],
      box: BOX[id],
      at: entry ? entry.at : id === 'created' ? 0 : null,
      ...(entry ? { entry } : {}),
    };
  });
  // By time; equal times keep the chain's order; never-reached stages last.
  return stages
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (a.s.at ?? Infinity) - (b.s.at ?? Infinity) || a.i - b.i)
    .map(({ s }) => s);
}

/** The stage reached last at `at` (null before the first), and whether the chain is done. */
export function stageAt(stages: readonly ProvisioningStage[], at: SimMs): ProvisioningStage | null {
  let current: ProvisioningStage | null = null;
  for (const s of stages) if (s.at !== null && s.at <= at) current = s;
  return current;
}
