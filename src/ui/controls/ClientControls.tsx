import type { ClientModel } from '../../model/scenario/cluster';
import { ingressHostname } from '../../model/scenario/cluster';
import { serviceExternalIP } from '../../model/k8s/kubectlColumns';
import type { DialTarget } from '../../model/scenario/scene';
import { run, setClient, setDial } from '../../store/commands';
import { selectCluster, selectScene, useAppStore, useAppStoreApi } from '../../store';

function clientLabel(c: ClientModel): string {
  if (c.location === 'Internet') return `Internet (${c.address})`;
  if (c.location === 'Node') return `${c.nodeName ?? 'a node'} host network (${c.address})`;
  return `Pod on ${c.nodeName ?? 'a node'} (${c.address})`;
}

function dialKey(d: DialTarget): string {
  return d.kind === 'NodePort' ? `NodePort:${d.nodeName}` : d.kind;
}

/**
 * Where the client is, and what it dials: two selects, one row each. The dial list grows with
 * the cluster (one `node:nodePort` per node); the client list with the Client objects.
 */
export function ClientControls() {
  const store = useAppStoreApi();
  const scene = useAppStore(selectScene);
  const cluster = useAppStore(selectCluster);
  if (!cluster) return null;
  const svc = cluster.services[0];
  const nodePort = svc?.ports[0]?.nodePort ?? 0;
  const client = cluster.clients.find((c) => c.name === scene.client);
  const inCluster = client !== undefined && client.location !== 'Internet';
  const lbIP = svc?.ingress[0]?.ip;
  // An AWS-style balancer publishes a DNS name only: the client dials the name.
  const lbName = svc && !lbIP ? ingressHostname(svc) : undefined;
  const dials: { value: string; label: string; dial: DialTarget; disabled?: boolean }[] = [
    {
      value: 'LoadBalancer',
      label: lbIP
        ? `load balancer IP ${lbIP}`
        : lbName
          ? `load balancer ${lbName}`
          : `load balancer: EXTERNAL-IP ${svc ? serviceExternalIP(svc) : '<pending>'}`,
      dial: { kind: 'LoadBalancer' },
    },
    ...cluster.nodes.map((n) => ({
      value: `NodePort:${n.name}`,
      label: `${n.name}:${nodePort} directly`,
      dial: { kind: 'NodePort', nodeName: n.name } as DialTarget,
    })),
    {
      value: 'ClusterIP',
      label: `ClusterIP ${svc?.clusterIP ?? ''}${inCluster ? '' : ' (from inside the cluster only)'}`,
      dial: { kind: 'ClusterIP' },
      disabled: !inCluster,
    },
  ];
  return (
    <>
      <label className="scene-row" data-group="client">
        <span className="scene-label">Client</span>
        <select
          value={scene.client}
          onChange={(e) => run(store, setClient(e.target.value))}
          data-testid="client-select"
        >
          {cluster.clients.map((c) => (
            <option key={c.name} value={c.name}>
              {clientLabel(c)}
            </option>
          ))}
        </select>
      </label>
      <label className="scene-row" data-group="dial">
        <span className="scene-label">The client dials</span>
        <select
          value={dialKey(scene.dial)}
          onChange={(e) => {
            const d = dials.find((o) => o.value === e.target.value);
            if (d) run(store, setDial(d.dial));
          }}
          data-testid="dial-select"
          // A long DNS name is cut by the select's width: the whole choice on hover.
          title={dials.find((d) => d.value === dialKey(scene.dial))?.label}
        >
          {dials.map((d) => (
            <option key={d.value} value={d.value} disabled={d.disabled}>
              {d.label}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
