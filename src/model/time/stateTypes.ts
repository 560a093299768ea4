/**
 * The cluster as the timeline tracks it between events (./types.ts re-exports these): Pods,
 * endpoints as kube-proxy last synced them, nodes, and the world state as of one moment.
 */
import type { SimMs } from './types';

/** A Pod as the timeline tracks it. */
export interface PodState {
  /** `namespace/name`. */
  key: string;
  name: string;
  namespace: string;
  ip: string;
  node: string;
  /** `Pending` until scheduled and started, `Running`, or `Terminating` (deletionTimestamp set). */
  phase: 'Pending' | 'Running' | 'Terminating';
  /** The Pod's `Ready` condition. */
  ready: boolean;
  /** When `metadata.deletionTimestamp` was set (Terminating), simulated ms. */
  deletedAt?: SimMs;
}

/** One endpoint as kube-proxy last synced it (EndpointSlice `conditions`). */
export interface EndpointState {
  /** `namespace/name` of the Pod. */
  pod: string;
  ip: string;
  node: string;
  ready: boolean;
  serving: boolean;
  terminating: boolean;
}

/** A node as the timeline tracks it. */
export interface NodeState {
  name: string;
  /** Powered on and answering (kubelet, kube-proxy and Pods running). */
  up: boolean;
  /** The `Ready` condition as the API server shows it (`Unknown` once the node lifecycle controller notices). */
  readyCondition: 'True' | 'False' | 'Unknown';
  /** `spec.unschedulable` (cordoned). */
  unschedulable: boolean;
  /** Taint keys on the node, e.g. `node.kubernetes.io/unreachable`. */
  taints: string[];
  /** When `ToBeDeletedByClusterAutoscaler` was added (its value is that Unix time). */
  taintedAt?: SimMs;
}

/**
 * The state of the world during one {@link Epoch}: plain data from which
 * {@link stateAt} rebuilds objects and scene.
 */
export interface WorldState {
  nodes: NodeState[];
  /** Every backend Pod of the Service, including terminating ones, sorted by key. */
  pods: PodState[];
  /** The endpoints as kube-proxy has programmed them (lags the API by `endpointPropagationMs`). */
  endpoints: EndpointState[];
  policy: 'Cluster' | 'Local';
  /** Whether `status.loadBalancer.ingress` is published. */
  published: boolean;
  /** Nodes in the balancer's rotation (MetalLB: the announcing node only). */
  inRotation: string[];
  /** MetalLB: the node whose speaker answers ARP for the address; null otherwise or before assignment. */
  announcingNode: string | null;
}
