/**
 * The shipped examples (public/examples/): each is real `kubectl get … -o yaml` output plus,
 * where needed, our own kinds. Each must load, fill, resolve and give the outcome a real
 * cluster gives. Sources for the expectations:
 * - externalTrafficPolicy Local: the balancer's health check on healthCheckNodePort gets 503
 *   from a node without a local ready endpoint (`pkg/proxy/healthcheck/service_health.go`).
 * - ipMode Proxy: kube-proxy skips the load-balancer IP (`pkg/proxy/servicechangetracker.go`,
 *   `proxyutil.IsVIPMode`), so no "loadbalancer IP" rule is written (`pkg/proxy/iptables/proxier.go`).
 * - loadBalancerSourceRanges: KUBE-FW-<hash> accepts `-s <range>` and KUBE-PROXY-FIREWALL drops
 *   the rest (`proxier.go`, `syncProxyRules`).
 * - Named targetPorts: the EndpointSlice controller resolves them per Pod (`podutil.FindPort`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadObjects } from './load';
import { fillGaps } from './fill';
import { DEFAULT_SCENE, resolveCluster, runScene } from '../index';
import type { SceneOptions, ScenarioObject } from '../index';
import type { EndpointModel } from '../scenario/cluster';

const DIR = 'public/examples';

interface IndexEntry {
  file: string;
  title: string;
  description: string;
}

const INDEX = JSON.parse(readFileSync(`${DIR}/index.json`, 'utf8')) as IndexEntry[];

function load(file: string): { objects: ScenarioObject[]; assumed: string[]; skipped: string[] } {
  const loaded = loadObjects(readFileSync(`${DIR}/${file}`, 'utf8'));
  return { ...fillGaps(loaded.objects), skipped: loaded.skipped };
}

/**
 * `DEFAULT_SCENE` with the example's own values for the toggles that `applyScene` writes onto
 * the objects (externalTrafficPolicy, ipMode, delivery): with DEFAULT_SCENE as it is, a Local
 * Service would be traced as Cluster and an ipMode Proxy address as VIP.
 */
function sceneFor(
  objects: readonly ScenarioObject[],
  over: Partial<SceneOptions> = {},
): SceneOptions {
  const svc = objects.find((o) => o.kind === 'Service' && o.spec?.type === 'LoadBalancer');
  const spec = svc?.kind === 'Service' ? svc.spec : undefined;
  const ingress = svc?.kind === 'Service' ? svc.status?.loadBalancer?.ingress?.[0] : undefined;
  const lb = objects.find((o) => o.kind === 'CloudLoadBalancer');
  return {
    ...DEFAULT_SCENE,
    client: 'internet',
    externalTrafficPolicy: spec?.externalTrafficPolicy === 'Local' ? 'Local' : 'Cluster',
    ipMode: ingress?.ipMode === 'Proxy' ? 'Proxy' : 'VIP',
    delivery: lb?.kind === 'CloudLoadBalancer' ? (lb.spec.delivery ?? 'NodePort') : 'NodePort',
    ...over,
  };
}

function ruleLines(objects: readonly ScenarioObject[], over: Partial<SceneOptions> = {}): string[] {
  const r = runScene(objects, sceneFor(objects, over));
  return Object.values(r.rules).flatMap((rs) => rs.lines.map((l) => l.text));
}

const byIP = (a: EndpointModel, b: EndpointModel) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0);

describe('public/examples/index.json', () => {
  it('lists canonical.yaml first and every example exactly once, each with a title and one sentence', () => {
    expect(INDEX[0]?.file).toBe('canonical.yaml');
    const yamls = readdirSync(DIR)
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(INDEX.map((e) => e.file).sort()).toEqual(yamls);
    for (const e of INDEX) {
      expect(existsSync(`${DIR}/${e.file}`)).toBe(true);
      expect(e.title.length).toBeGreaterThan(0);
      expect(e.description).toMatch(/^\S[^\n]*\.$/);
      expect(e.description).not.toMatch(/\.\s/);
    }
  });
});

describe.each(INDEX.map((e) => e.file))('%s', (file) => {
  it('loads without skipping anything, fills, resolves and traces a connection from the internet', () => {
    const { objects, skipped } = load(file);
    expect(skipped).toEqual([]);
    const cluster = resolveCluster(objects);
    expect(cluster.nodes.length).toBeGreaterThanOrEqual(3);
    expect(cluster.services.some((s) => s.type === 'LoadBalancer')).toBe(true);
    const r = runScene(objects, sceneFor(objects));
    expect(r.trace.outcome.kind).not.toBe('timed-out');
  });

  it('holds the EndpointSlices the controller derives from its Pods (fillGaps agrees with the cluster)', () => {
    const { objects } = load(file);
    const given = resolveCluster(objects).endpoints;
    // Drop the controller's slices and let fillGaps derive them from the Pods again.
    const without = loadObjects(readFileSync(`${DIR}/${file}`, 'utf8')).objects.filter(
      (o) =>
        o.kind !== 'EndpointSlice' ||
        o.metadata?.labels?.['endpointslice.kubernetes.io/managed-by'] !==
          'endpointslice-controller.k8s.io',
    );
    const derived = resolveCluster(fillGaps(without).objects).endpoints;
    expect(Object.keys(derived).sort()).toEqual(Object.keys(given).sort());
    for (const key of Object.keys(given))
      expect([...(derived[key] ?? [])].sort(byIP)).toEqual([...(given[key] ?? [])].sort(byIP));
  });
});

describe('cloud-cluster-policy.yaml', () => {
  const { objects, assumed } = load('cloud-cluster-policy.yaml');
  const middle = 'gke-prod-default-pool-8d94e0c7-9m2q';

  it("assumes kube-proxy's defaults and the clusterCIDR the nodes' podCIDRs tell, and says so", () => {
    expect(assumed).toEqual([
      "kube-proxy's defaults (mode iptables): no KubeProxyConfiguration was given",
      "kube-proxy clusterCIDR 10.52.0.0/16: the /16 holding every Node's spec.podCIDR (kube-proxy's own default is empty; kubeadm sets it to the pod subnet)",
      'a client on the internet at 198.51.100.23',
    ]);
  });

  it('delivers: every node passes /healthz and gets a third of the connections', () => {
    const r = runScene(objects, sceneFor(objects));
    expect(r.trace.outcome.kind).toBe('delivered');
    expect(r.lbTargets.map((c) => [c.eligible, c.probability])).toEqual([
      [true, 1 / 3],
      [true, 1 / 3],
      [true, 1 / 3],
    ]);
    for (let seed = 1; seed <= 20; seed++)
      expect(runScene(objects, sceneFor(objects, { seed })).trace.outcome.kind).toBe('delivered');
  });

  it('a connection sent to the node without Pods crosses to another node, masqueraded', () => {
    const r = runScene(objects, sceneFor(objects, { choices: { lbTarget: middle } }));
    const o = r.trace.outcome;
    expect(o.kind).toBe('delivered');
    if (o.kind !== 'delivered') return;
    expect(o.crossedNodes).toBe(true);
    expect(o.snat).toBe(true);
    expect(o.clientIPPreserved).toBe(false);
    expect(o.sourceIPSeenByPod).toBe('10.132.0.22');
  });
});

describe('local-uneven.yaml', () => {
  const { objects } = load('local-uneven.yaml');
  const [n0, n1, n2] = [0, 1, 2].map((i) => `aks-nodepool1-38290761-vmss00000${i}`);

  it('the health check keeps the node without Pods out; the two others share equally', () => {
    const r = runScene(objects, sceneFor(objects));
    expect(r.cluster.services[0]?.healthCheckNodePort).toBe(31872);
    expect(r.lbTargets.map((c) => [c.id, c.eligible, c.probability])).toEqual([
      [n0, true, 0.5],
      [n1, true, 0.5],
      [n2, false, 0],
    ]);
    expect(r.lbTargets[2]?.status).toBe(
      'health check http://10.224.0.6:31872/healthz: 503, no local endpoints',
    );
    expect(r.lbTargets[1]?.status).toBe(
      'health check http://10.224.0.5:31872/healthz: 200, 3 local endpoints',
    );
  });

  it('never sends a connection to the node without Pods, and keeps the client address', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const t = runScene(objects, sceneFor(objects, { seed })).trace;
      const chosen = t.steps.find((s) => s.decision?.kind === 'lb-target')?.decision?.chosen;
      expect([n0, n1]).toContain(chosen);
      const o = t.outcome;
      expect(o.kind).toBe('delivered');
      if (o.kind !== 'delivered') continue;
      expect(o.node).toBe(chosen);
      expect(o.crossedNodes).toBe(false);
      expect(o.clientIPPreserved).toBe(true);
    }
  });
});

describe('bare-metal-pending.yaml', () => {
  const { objects, assumed } = load('bare-metal-pending.yaml');

  it('has no address to dial, says why, and invents no balancer', () => {
    const o = runScene(objects, sceneFor(objects)).trace.outcome;
    expect(o.kind).toBe('no-address');
    expect(assumed).toEqual([
      'no load-balancer address for Service default/web: status.loadBalancer is empty, so EXTERNAL-IP stays <pending> — no cloud controller or load-balancer implementation (such as MetalLB) has answered; none is invented',
      'a client on the internet at 198.51.100.23',
    ]);
    expect(objects.some((x) => x.kind === 'CloudLoadBalancer')).toBe(false);
  });

  it("reads kubeadm's kube-proxy configuration (nulls and empty strings are kube-proxy's defaults)", () => {
    const { kubeProxy } = resolveCluster(objects);
    expect(kubeProxy).toMatchObject({
      mode: 'iptables',
      clusterCIDR: '10.244.0.0/16',
      masqueradeBit: 14,
      localhostNodePorts: true,
      nodePortAddresses: [],
    });
  });

  it('the NodePort answers on every node all the same', () => {
    const dial = { kind: 'NodePort', nodeName: 'k8s-cp-1' } as const;
    expect(runScene(objects, sceneFor(objects, { dial })).trace.outcome.kind).toBe('delivered');
  });
});

describe('ipmode-proxy.yaml', () => {
  const { objects } = load('ipmode-proxy.yaml');

  it('kube-proxy writes no rule for the load-balancer IP on any node', () => {
    const lines = ruleLines(objects);
    expect(lines.some((l) => l.includes('loadbalancer IP'))).toBe(false);
    expect(lines.some((l) => l.includes('203.0.113.80'))).toBe(false);
    // The same cluster with ipMode VIP does write them.
    expect(ruleLines(objects, { ipMode: 'VIP' }).some((l) => l.includes('loadbalancer IP'))).toBe(
      true,
    );
  });

  it('the balancer proxies to a NodePort from its own address; the Pod never sees the client', () => {
    const t = runScene(objects, sceneFor(objects)).trace;
    const lb = t.steps.find((s) => s.at === 'lb');
    expect(lb?.transform).toBe('proxy');
    expect(lb?.after.src).toBe('10.0.1.5');
    expect(lb?.after.dport).toBe(30080);
    const o = t.outcome;
    expect(o.kind).toBe('delivered');
    if (o.kind === 'delivered') expect(o.clientIPPreserved).toBe(false);
  });
});

describe('source-ranges.yaml', () => {
  const { objects } = load('source-ranges.yaml');

  it('every node has a KUBE-FW- chain accepting 198.51.100.0/24', () => {
    const r = runScene(objects, sceneFor(objects));
    for (const rs of Object.values(r.rules))
      expect(rs.lines.some((l) => /^-A KUBE-FW-\S+ .*-s 198\.51\.100\.0\/24 /.test(l.text))).toBe(
        true,
      );
  });

  it('lets a client in the range through and drops one outside it', () => {
    expect(runScene(objects, sceneFor(objects)).trace.outcome.kind).toBe('delivered');
    const o = runScene(objects, sceneFor(objects, { client: 'outside' })).trace.outcome;
    expect(o.kind).toBe('dropped');
    if (o.kind === 'dropped') expect(o.rule).toMatch(/traffic not accepted by KUBE-FW-/);
  });
});

describe('multi-port-named.yaml', () => {
  const { objects } = load('multi-port-named.yaml');

  it('resolves both named targetPorts through the EndpointSlice: 8080 and 8443', () => {
    const cluster = resolveCluster(objects);
    const svc = cluster.services.find((s) => s.name === 'frontend');
    expect(svc?.ports.map((p) => [p.name, p.port, p.targetPort])).toEqual([
      ['http', 80, 8080],
      ['https', 443, 8443],
    ]);
    const eps = (k: string) => (cluster.endpoints[k] ?? []).map((e) => `${e.ip}:${e.port}`).sort();
    expect(eps('web/frontend:http')).toEqual(['10.8.0.19:8080', '10.8.1.33:8080']);
    expect(eps('web/frontend:https')).toEqual(['10.8.0.19:8443', '10.8.1.33:8443']);
  });

  it('writes DNAT rules to both ports and delivers', () => {
    const lines = ruleLines(objects);
    expect(lines.some((l) => l.includes('--to-destination 10.8.0.19:8080'))).toBe(true);
    expect(lines.some((l) => l.includes('--to-destination 10.8.0.19:8443'))).toBe(true);
    expect(runScene(objects, sceneFor(objects)).trace.outcome.kind).toBe('delivered');
  });
});

describe('eks-hostname.yaml', () => {
  // AWS publishes a DNS name only (status.loadBalancer.ingress[].hostname). kube-proxy makes
  // load-balancer VIPs of ingress IPs only (pkg/proxy/serviceport.go newBaseServiceInfo:
  // `if ing.IP == "" { continue }`), and kubectl prints the hostname as EXTERNAL-IP
  // (printers.go loadBalancerStatusStringer).
  const { objects, assumed } = load('eks-hostname.yaml');
  const hostname = 'a4f3c2b1a9e8d4c7ba6f5e4d3c2b1a09-1234567890.us-east-1.elb.amazonaws.com';

  it('is published: the hostname is kept, a balancer targets NodePorts at an address the name stands for', () => {
    const cluster = resolveCluster(objects);
    const svc = cluster.services.find((s) => s.name === 'web');
    expect(svc?.ingress).toEqual([]);
    expect(svc?.statusIngress).toEqual([{ ip: '', hostname }]);
    expect(cluster.loadBalancers).toMatchObject([
      { service: 'default/web', delivery: 'NodePort', address: '203.0.113.10' },
    ]);
    expect(assumed.some((a) => a.includes(`${hostname} resolves to 203.0.113.10`))).toBe(true);
    expect(assumed.some((a) => a.includes('EXTERNAL-IP stays <pending>'))).toBe(false);
  });

  it('kube-proxy writes no rule for the balancer address on any node, only the NodePort', () => {
    const lines = ruleLines(objects);
    expect(lines.some((l) => l.includes('loadbalancer IP'))).toBe(false);
    expect(lines.some((l) => l.includes('203.0.113.10'))).toBe(false);
    expect(lines.some((l) => /-A KUBE-NODEPORTS .*--dport 31380 /.test(l))).toBe(true);
  });

  it('the client resolves the name, dials the balancer, and the balancer delivers to NodePort 31380', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const t = runScene(objects, sceneFor(objects, { seed })).trace;
      const first = t.steps[0];
      expect(first?.narration.title).toBe(
        `The client resolves ${hostname} and dials 203.0.113.10:80`,
      );
      expect(first?.before.dst).toBe('203.0.113.10');
      const lb = t.steps.find((s) => s.at === 'lb');
      expect(lb?.after.dport).toBe(31380);
      expect(t.outcome.kind).toBe('delivered');
    }
  });

  it('delivery LoadBalancerIP cannot keep the balancer address (no KUBE-EXT rule for it): NodePort, and says so', () => {
    const r = runScene(objects, sceneFor(objects, { delivery: 'LoadBalancerIP' }));
    expect(r.cluster.loadBalancers[0]?.delivery).toBe('NodePort');
    expect(r.cluster.assumed.some((a) => a.includes('delivers to the NodePort'))).toBe(true);
    expect(r.trace.steps.find((s) => s.at === 'lb')?.after.dport).toBe(31380);
    expect(r.trace.outcome.kind).toBe('delivered');
  });

  it('unpublished, there is nothing to dial', () => {
    const o = runScene(objects, sceneFor(objects, { published: false })).trace.outcome;
    expect(o.kind).toBe('no-address');
  });
});
