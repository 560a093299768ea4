import type { ClientModel } from '../../model/scenario/cluster';
import type { DialTarget } from '../../model/scenario/scene';
import { run, setClient, setDial } from '../../store/commands';
import { selectCluster, selectScene, useAppStore, useAppStoreApi } from '../../store';
import { RadioGroup } from './RadioGroup';

function clientLabel(c: ClientModel): string {
  if (c.location === 'Internet') return `Internet (${c.address})`;
  if (c.location === 'Node') return `${c.nodeName ?? 'node'} host`;
  return `pod on ${c.nodeName ?? 'a node'}`;
}

function dialKey(d: DialTarget): string {
  return d.kind === 'NodePort' ? `NodePort:${d.nodeName}` : d.kind;
}

/** Where the client is, and what it dials. */
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
  const dials: { value: string; label: string; dial: DialTarget; disabled?: boolean }[] = [
    {
      value: 'LoadBalancer',
      label: `load balancer IP ${lbIP ?? '<pending>'}`,
      dial: { kind: 'LoadBalancer' },
    },
    ...cluster.nodes.map((n) => ({
      value: `NodePort:${n.name}`,
      label: `${n.name}:${nodePort} directly`,
      dial: { kind: 'NodePort', nodeName: n.name } as DialTarget,
    })),
    {
      value: 'ClusterIP',
      label: `ClusterIP ${svc?.clusterIP ?? ''}`,
      dial: { kind: 'ClusterIP' },
      disabled: !inCluster,
    },
  ];
  return (
    <>
      <RadioGroup
        legend="Client"
        name="client"
        value={scene.client}
        options={cluster.clients.map((c) => ({ value: c.name, label: clientLabel(c) }))}
        onChange={(v) => run(store, setClient(v))}
      />
      <RadioGroup
        legend="The client dials"
        name="dial"
        value={dialKey(scene.dial)}
        options={dials}
        onChange={(v) => {
          const d = dials.find((o) => o.value === v);
          if (d) run(store, setDial(d.dial));
        }}
        note={inCluster ? undefined : 'ClusterIP is only reachable from inside the cluster.'}
      />
    </>
  );
}
