/**
 * Taints and tolerations as the timeline's scheduler and node lifecycle read them: the taints
 * the timeline manages, `Toleration.ToleratesTaint`, and the taints that keep a new Pod off a
 * node.
 */

/** The taint cluster-autoscaler puts on a node it scales down (`ToBeDeletedByClusterAutoscaler`). */
export const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';

/** The taints the timeline itself adds and removes (the others come from the input and stay). */
export const MANAGED_TAINTS: readonly string[] = [
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/unschedulable',
  TO_BE_DELETED_TAINT,
];

/** A taint as the API has it (`spec.taints[]`). */
export interface TaintLike {
  key?: string;
  value?: string;
  effect?: string;
}

/** A toleration as the API has it (`spec.tolerations[]`). */
export interface TolerationLike {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/**
 * Whether `toleration` tolerates `taint`: `k8s.io/api/core/v1` `Toleration.ToleratesTaint`
 * (an empty effect matches every effect, an empty key with `Exists` every key; `Equal`, the
 * default operator, compares values).
 */
export function toleratesTaint(toleration: TolerationLike, taint: TaintLike): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const op = toleration.operator ?? '';
  if (op === 'Exists') return true;
  if (op === '' || op === 'Equal') return (toleration.value ?? '') === (taint.value ?? '');
  return false;
}

/**
 * The taints of a node that keep a new Pod with `tolerations` off it: the scheduler's
 * TaintToleration filter counts `NoSchedule` and `NoExecute`, never `PreferNoSchedule`
 * (`pkg/scheduler/framework/plugins/tainttoleration`), e.g. kubeadm's
 * `node-role.kubernetes.io/control-plane:NoSchedule`.
 */
export function blockingTaints(
  taints: readonly TaintLike[],
  tolerations: readonly TolerationLike[],
): TaintLike[] {
  return taints.filter(
    (t) =>
      (t.effect === 'NoSchedule' || t.effect === 'NoExecute') &&
      !tolerations.some((tol) => toleratesTaint(tol, t)),
  );
}
