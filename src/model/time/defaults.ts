/**
 * Default settings of the timeline, each with its source. Health checks: Google Cloud's
 * external passthrough Network Load Balancer as `cloud-provider-gcp` creates it for a
 * Service (one named cloud, as the issue asks); control-plane delays: Kubernetes' own
 * defaults.
 */
import type {
  ControlPlaneSettings,
  HealthCheckSettings,
  MetalLbSettings,
  ProvisioningSettings,
} from './types';

/**
 * GCP's defaults, from `kubernetes/cloud-provider-gcp` `providers/gce/gce.go`:
 * `gceHcCheckIntervalSeconds = 8`, `gceHcTimeoutSeconds = 1`, `gceHcHealthyThreshold = 1`,
 * `gceHcUnhealthyThreshold = 3` ("3 * 8 = 24 seconds before the LB will steer traffic
 * away"). `gce_loadbalancer_external.go` uses the same values for the per-Service check on
 * `healthCheckNodePort` (externalTrafficPolicy Local, path `/healthz`) and for the shared
 * node check on kube-proxy's `:10256/healthz` (Cluster).
 */
export const DEFAULT_HEALTH_CHECK: HealthCheckSettings = {
  intervalSeconds: 8,
  timeoutSeconds: 1,
  healthyThreshold: 1,
  unhealthyThreshold: 3,
  clusterTarget: 'healthz',
};

/**
 * Named presets for the settings panel.
 * - `gcp`: {@link DEFAULT_HEALTH_CHECK}.
 * - `gke-l4-local`: GKE's newer L4 controller (`kubernetes/ingress-gce`
 *   `pkg/healthchecksl4`) checks Local-policy Services faster:
 *   `gceLocalHcCheckIntervalSeconds = 3`, `gceLocalHcUnhealthyThreshold = 2` ("2 * 3 = 6
 *   seconds before the LB will steer traffic away"), timeout 1, healthy threshold 1.
 */
export const HEALTH_CHECK_PRESETS: Readonly<Record<'gcp' | 'gke-l4-local', HealthCheckSettings>> = {
  gcp: DEFAULT_HEALTH_CHECK,
  'gke-l4-local': {
    intervalSeconds: 3,
    timeoutSeconds: 1,
    healthyThreshold: 1,
    unhealthyThreshold: 2,
    clusterTarget: 'healthz',
  },
};

/**
 * MetalLB layer 2. `failoverDetectMs`: MetalLB's speakers find a dead peer with
 * hashicorp/memberlist (metallb PR #527, "failover around 3s"; the layer-2 concept page:
 * "failover happens within a few seconds"). memberlist's LAN defaults probe every 1 s and
 * declare a suspect dead after 4 × max(1, log10 N) probe intervals, so about 5 s on a small
 * cluster. `poolRange` empty: `.240-.249` of the first node's /24 (the MetalLB docs'
 * example pool is `192.168.1.240-192.168.1.250` named `first-pool`). `ignoreExcludeLb`: off,
 * as MetalLB ships (its troubleshooting page: "MetalLB honors that label and won't announce
 * any service from such nodes").
 */
export const DEFAULT_METALLB: MetalLbSettings = {
  poolName: 'first-pool',
  poolRange: '',
  failoverDetectMs: 5_000,
  ignoreExcludeLb: false,
};

/**
 * Provisioning delays. The cloud's are typical, not specified anywhere (a GCP forwarding
 * rule and target pool take tens of seconds); edit them freely.
 */
export const DEFAULT_PROVISIONING: ProvisioningSettings = {
  controller: 'cloud',
  informerDelayMs: 200,
  provisionDelayMs: 30_000,
  registerDelayMs: 5_000,
  fromCreation: false,
  metallb: DEFAULT_METALLB,
};

/**
 * Control-plane defaults.
 * - `nodeMonitorGracePeriodSeconds: 50`: kube-controller-manager's
 *   `--node-monitor-grace-period` default since Kubernetes 1.32 (kubernetes/kubernetes PR
 *   #126287, "increased to 50s (earlier 40s)"); 1.30 and 1.31 use 40.
 * - `endpointPropagationMs: 1000`: EndpointSlice update → kube-proxy rules, dominated by
 *   kube-proxy's `minSyncPeriod` (default 1 s) batching of changes.
 * - `unreachableTolerationSeconds: 300`: the DefaultTolerationSeconds admission plugin adds
 *   `node.kubernetes.io/unreachable:NoExecute` for 300 s to every Pod
 *   (`--default-unreachable-toleration-seconds`).
 * - `readinessDelayMs: 5000`: a new Pod's start and first passing readiness probe (assumed).
 * - `terminationGracePeriodSeconds: 30`: the Pod API default.
 */
export const DEFAULT_CONTROL_PLANE: ControlPlaneSettings = {
  nodeMonitorGracePeriodSeconds: 50,
  endpointPropagationMs: 1_000,
  unreachableTolerationSeconds: 300,
  readinessDelayMs: 5_000,
  terminationGracePeriodSeconds: 30,
};

/**
 * Linux's default `net.ipv4.tcp_syn_retries = 6`: a client gives up on a SYN that gets no
 * answer after 1 + 2 + 4 + 8 + 16 + 32 + 64 = 127 s (Documentation/networking/ip-sysctl).
 */
export const CLIENT_SYN_TIMEOUT_MS = 127_000;

/**
 * Linux's default `net.ipv4.tcp_retries2 = 15`: an established connection whose segments
 * get no ACK is given up after about 924.6 s of retransmissions (ip-sysctl: "a hypothetical
 * timeout of 924.6 seconds").
 */
export const ESTABLISHED_RETRANSMIT_TIMEOUT_MS = 924_600;
