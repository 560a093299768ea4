import {
  run,
  setDelivery,
  setImplementation,
  setIpMode,
  setPolicy,
  setProxyMode,
  setPublished,
} from '../../store/commands';
import { selectCluster, selectResult, selectScene, useAppStore, useAppStoreApi } from '../../store';
import type { SceneOptions } from '../../model/scenario/scene';
import type { Cluster } from '../../model/scenario/cluster';
import { ingressHostname } from '../../model/scenario/cluster';
import { TracedPicker } from '../import/TracedPicker';
import { ClientControls } from './ClientControls';
import { NodeFailure } from './NodeFailure';
import { RadioGroup } from './RadioGroup';

type Policy = SceneOptions['externalTrafficPolicy'];
type IpMode = SceneOptions['ipMode'];
type Delivery = SceneOptions['delivery'];
type Mode = NonNullable<SceneOptions['proxyMode']>;
type Implementation = NonNullable<SceneOptions['implementation']>;

/** The hostname the traced Service's balancer published instead of an IP, if that is all it published. */
function hostnameOfTraced(
  cluster: Cluster | undefined,
  key: string | undefined,
): string | undefined {
  if (!cluster) return undefined;
  // pickService's choice, without its throw for a key that names no Service.
  const svc =
    (key ? cluster.services.find((s) => `${s.namespace}/${s.name}` === key) : undefined) ??
    cluster.services.find((s) => s.type === 'LoadBalancer') ??
    cluster.services[0];
  return svc && ingressHostname(svc);
}

/**
 * The toggles: each one changes the scenario's objects, and the model runs again. Compact
 * (segmented two- and three-way toggles, one row each where the legend fits) so they sit beside
 * the drawing; the lists that grow with the cluster (nodes, dial targets) are selects.
 */
export function SceneControls() {
  const store = useAppStoreApi();
  const scene = useAppStore(selectScene);
  const cluster = useAppStore(selectCluster);
  const serviceKey = useAppStore(selectResult)?.serviceKey;
  // A balancer that published only a DNS name (AWS) has no ipMode (the API allows it only with
  // ip) and can only target NodePorts: kube-proxy has no rule for its address. It is a NAT
  // balancer (resolve.ts deliverHostnameBalancersToNodePorts).
  const hostname = hostnameOfTraced(cluster, scene.service);
  const proxy = hostname === undefined && scene.ipMode === 'Proxy';
  // The resolved balancer's implementation: the scene's choice, else the scenario's own.
  const implementation: Implementation =
    hostname !== undefined
      ? 'NAT'
      : (scene.implementation ??
        cluster?.loadBalancers.find((l) => l.service === serviceKey)?.implementation ??
        'NAT');
  const keepsDestination = implementation !== 'NAT';
  return (
    <div className="scene-controls">
      <TracedPicker />
      <RadioGroup<Policy>
        variant="segmented"
        legend={<code>spec.externalTrafficPolicy</code>}
        name="policy"
        value={scene.externalTrafficPolicy}
        options={[
          { value: 'Cluster', label: 'Cluster' },
          { value: 'Local', label: 'Local' },
        ]}
        onChange={(v) => run(store, setPolicy(v))}
      />
      <RadioGroup<IpMode>
        variant="segmented"
        legend={<code>status.loadBalancer.ingress[].ipMode</code>}
        name="ipmode"
        value={scene.ipMode}
        disabled={hostname !== undefined}
        options={[
          { value: 'VIP', label: 'VIP' },
          { value: 'Proxy', label: 'Proxy' },
        ]}
        onChange={(v) => run(store, setIpMode(v))}
        note={
          hostname !== undefined
            ? 'No ipMode: the balancer published a hostname, and ipMode may be set only with ip.'
            : undefined
        }
      />
      <label className="scene-row checkbox">
        <input
          type="checkbox"
          checked={scene.published}
          onChange={(e) => run(store, setPublished(e.target.checked))}
        />
        <span>
          <code>status.loadBalancer</code> published
        </span>
      </label>
      <RadioGroup<Implementation>
        variant="segmented"
        legend="Balancer (where the reply goes)"
        name="implementation"
        value={implementation}
        disabled={hostname !== undefined}
        options={[
          {
            value: 'NAT',
            label: 'NAT',
            title:
              'A NAT balancer, like AWS NLB with instance targets: on the path both ways, the reply returns through it',
          },
          {
            value: 'DirectServerReturn',
            label: 'DSR',
            title:
              'Direct server return, like Google Cloud’s passthrough Network Load Balancer: the packet keeps the LB IP, and the node answers the client itself',
          },
          {
            value: 'MetalLB-L2',
            label: 'MetalLB L2',
            title:
              'No balancer: MetalLB layer 2, one node answers ARP for the address and answers the client',
          },
          {
            value: 'MetalLB-BGP',
            label: 'MetalLB BGP',
            title:
              'No balancer: MetalLB BGP, a router sends each connection to one of the announcing nodes, which answers the client',
          },
        ]}
        onChange={(v) => run(store, setImplementation(v))}
        note={
          hostname !== undefined
            ? 'NAT: a balancer that publishes a hostname (AWS) answers through itself.'
            : undefined
        }
      />
      <RadioGroup<Delivery>
        variant="segmented"
        legend="Balancer delivers to"
        name="delivery"
        value={
          hostname !== undefined ? 'NodePort' : keepsDestination ? 'LoadBalancerIP' : scene.delivery
        }
        disabled={proxy || keepsDestination || hostname !== undefined}
        options={[
          {
            value: 'NodePort',
            label: 'NodePort',
            title: 'The balancer rewrites the destination to a node’s NodePort',
          },
          {
            value: 'LoadBalancerIP',
            label: 'LoadBalancer IP',
            title:
              'The balancer keeps the load balancer IP as the destination; kube-proxy’s “loadbalancer IP” rule catches it',
          },
        ]}
        onChange={(v) => run(store, setDelivery(v))}
        note={
          hostname !== undefined
            ? 'NodePort only: kube-proxy writes rules for ingress IPs, none for the address the hostname resolves to.'
            : proxy && !keepsDestination
              ? 'Not used with ipMode Proxy: the balancer always proxies to the NodePort.'
              : keepsDestination
                ? `Always the LoadBalancer IP with ${implementation === 'DirectServerReturn' ? 'direct server return' : 'MetalLB'}: nothing rewrites the destination.`
                : undefined
        }
      />
      <RadioGroup<Mode>
        variant="segmented"
        legend={
          <>
            kube-proxy <code>mode</code>
          </>
        }
        name="proxymode"
        value={scene.proxyMode ?? cluster?.kubeProxy.mode ?? 'iptables'}
        options={[
          { value: 'iptables', label: 'iptables' },
          { value: 'nftables', label: 'nftables' },
          { value: 'ipvs', label: 'IPVS' },
        ]}
        onChange={(v) => run(store, setProxyMode(v))}
      />
      <NodeFailure />
      <ClientControls />
    </div>
  );
}
