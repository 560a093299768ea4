/**
 * Nodes the cloud's service controller leaves out of a balancer's targets, by label.
 */

/** The label (`k8s.io/api/core/v1` `LabelNodeExcludeBalancers`). */
export const EXCLUDE_LB_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers';

/**
 * Whether the cloud's service controller leaves a node out of the balancer's targets:
 * `nodeIncludedPredicate` in `k8s.io/cloud-provider` `controllers/service/controller.go` —
 * the label `node.kubernetes.io/exclude-from-external-load-balancers` present with a value
 * that does not parse as false (`strconv.ParseBool`).
 */
export function excludedFromCloudBalancer(
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const v = labels?.[EXCLUDE_LB_LABEL];
  if (v === undefined) return false;
  return !['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(v);
}
