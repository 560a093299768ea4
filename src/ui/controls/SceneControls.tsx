import {
  nodeIsDown,
  run,
  setDelivery,
  setIpMode,
  setPolicy,
  setProxyMode,
  setPublished,
  toggleNodeFailure,
} from '../../store/commands';
import { selectCluster, selectScene, useAppStore, useAppStoreApi } from '../../store';
import type { SceneOptions } from '../../model/scenario/scene';
import { ClientControls } from './ClientControls';
import { CommandButton } from './CommandButton';
import { RadioGroup } from './RadioGroup';

type Policy = SceneOptions['externalTrafficPolicy'];
type IpMode = SceneOptions['ipMode'];
type Delivery = SceneOptions['delivery'];
type Mode = NonNullable<SceneOptions['proxyMode']>;

/** The toggles: each one changes the scenario's objects, and the model runs again. */
export function SceneControls() {
  const store = useAppStoreApi();
  const scene = useAppStore(selectScene);
  const cluster = useAppStore(selectCluster);
  const proxy = scene.ipMode === 'Proxy';
  return (
    <div className="scene-controls">
      <RadioGroup<Policy>
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
        legend={<code>status.loadBalancer.ingress[].ipMode</code>}
        name="ipmode"
        value={scene.ipMode}
        options={[
          { value: 'VIP', label: 'VIP' },
          { value: 'Proxy', label: 'Proxy' },
        ]}
        onChange={(v) => run(store, setIpMode(v))}
      />
      <RadioGroup<Mode>
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
      <RadioGroup<Delivery>
        legend="Balancer delivers to"
        name="delivery"
        value={scene.delivery}
        disabled={proxy}
        options={[
          { value: 'NodePort', label: 'NodePort' },
          { value: 'LoadBalancerIP', label: 'LoadBalancer IP' },
        ]}
        onChange={(v) => run(store, setDelivery(v))}
        note={
          proxy
            ? 'Disabled: with ipMode Proxy the balancer always proxies to the NodePort.'
            : 'NodePort: the balancer rewrites the destination; LoadBalancer IP: it keeps 203.0.113.7:80.'
        }
      />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={scene.published}
          onChange={(e) => run(store, setPublished(e.target.checked))}
        />
        <span>
          <code>status.loadBalancer</code> published
        </span>
      </label>
      <fieldset className="nodes">
        <legend>Nodes (or click a node in the drawing)</legend>
        <div className="node-buttons">
          {cluster?.nodes.map((n) => {
            // Down either way: failed here, or down in the timeline moment this trace shows.
            const failed = nodeIsDown(scene, n.name);
            return (
              <CommandButton
                key={n.name}
                command={toggleNodeFailure(n.name)}
                pressed={failed}
                className={failed ? 'danger' : undefined}
              >
                {failed ? `✗ ${n.name} down — restore` : `Fail ${n.name}`}
              </CommandButton>
            );
          })}
        </div>
      </fieldset>
      <ClientControls />
    </div>
  );
}
