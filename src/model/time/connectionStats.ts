/**
 * The many-connections summary: per node (where connections entered) and per Pod, the count
 * of the workload's connections against the share the epochs' path probabilities expect.
 */
import { ExpectedSums, shareRow } from './pathSet';
import type { ConnectionRecord, ConnectionStats, Epoch, ShareRow } from './types';

/**
 * Σ over epochs of (connections × path probability) per entry node and per Pod, summed in
 * the flat path list's order (epoch, entry, slot) with its arithmetic, so the numbers are the
 * flat list's to the last bit; without a map lookup per path (10 million at 1,000 nodes).
 */
function expectedCounts(
  perEpoch: ReadonlyMap<number, number>,
  epochs: readonly Epoch[],
): { expNode: Map<string, number>; expPod: Map<string, number> } {
  const expNode = new Map<string, number>();
  const sums = new ExpectedSums();
  for (const [ei, n] of perEpoch)
    for (const e of epochs[ei]?.byEntry ?? []) {
      const node = sums.add(e, n, e.entryNode ? (expNode.get(e.entryNode) ?? 0) : 0);
      if (e.entryNode && e.slots.weights.length > 0) expNode.set(e.entryNode, node);
    }
  const expPod = sums.perPod();
  return { expNode, expPod };
}

/**
 * Per-node (where connections entered) and per-Pod counts of `records` (the workload's
 * only, long-lived ones excluded), against the share the model's probabilities expect,
 * weighted by how many connections each epoch got.
 */
export function statsOf(
  records: readonly ConnectionRecord[],
  epochs: readonly Epoch[],
  nodeNames: readonly string[],
  homeNode: string | null,
): ConnectionStats {
  const rows = records.filter((r) => !r.longLived);
  const total = rows.length;
  const perEpoch = new Map<number, number>();
  for (const r of rows) perEpoch.set(r.epoch, (perEpoch.get(r.epoch) ?? 0) + 1);
  const { expNode, expPod } = expectedCounts(perEpoch, epochs);
  const node = new Map<string, ShareRow>();
  const pod = new Map<string, ShareRow>();
  for (const n of nodeNames) shareRow(node, n);
  for (const id of expPod.keys()) shareRow(pod, id);
  let delivered = 0;
  let cross = 0;
  let snat = 0;
  for (const r of rows) {
    const entry = r.lbTarget ?? homeNode;
    if (entry) {
      const nr = shareRow(node, entry);
      nr.count++;
      if (r.crossNode) nr.crossNode++;
      if (r.snat) nr.snat++;
    }
    if (r.outcome === 'delivered' && r.pod) {
      delivered++;
      const pr = shareRow(pod, r.pod);
      pr.count++;
      if (r.crossNode) pr.crossNode++;
      if (r.snat) pr.snat++;
      if (r.crossNode) cross++;
      if (r.snat) snat++;
    }
  }
  const finish = (m: Map<string, ShareRow>, exp: Map<string, number>) =>
    [...m.values()].map((r) => ({
      ...r,
      share: total ? r.count / total : 0,
      expectedShare: total ? (exp.get(r.id) ?? 0) / total : 0,
    }));
  return {
    total,
    delivered,
    failed: total - delivered,
    perNode: finish(node, expNode),
    perPod: finish(pod, expPod).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    crossNode: cross,
    snat,
  };
}
