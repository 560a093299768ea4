/**
 * IPv6 (issue 14 point 7): never silence. What Kubernetes does, and where it says so:
 * - On a dual-stack cluster kube-proxy runs one proxier per family (pkg/proxy/metaproxier);
 *   the IPv4 proxier reads only the IPv4 half: a Service's ClusterIP of its family
 *   (`GetClusterIPByFamily`, pkg/proxy/util), only EndpointSlices of addressType IPv4
 *   (`EndpointsChangeTracker.EndpointSliceUpdate`, pkg/proxy/endpointschangetracker.go:
 *   "Ignoring unsupported EndpointSlice"), and it skips a Service with no ClusterIP of its family
 *   (`ServiceChangeTracker.serviceToServiceMap`, pkg/proxy/servicechangetracker.go).
 * - `status.podIPs` holds one IP per family, `status.podIP` is `podIPs[0]`; a Node's IP for
 *   a family is its first InternalIP of that family (`utilnode.GetNodeHostIPs`).
 * - kubectl still prints every ingress IP in EXTERNAL-IP (printers.go
 *   `loadBalancerStatusStringer`).
 * The model is the IPv4 proxier, so a dual-stack cluster must trace exactly as its IPv4 half
 * would, and every IPv6 value must be named at its own line.
 */
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { canonicalObjects } from '../scenario/canonical';
import { DEFAULT_SCENE } from '../scenario/scene';
import { runScene } from '../index';
import type { ScenarioObject } from '../k8s/objects';
import { importSources } from './importer';
import { NOT_MODELLED } from './family-checks';

type Rec = Record<string, unknown>;

/** IPv6 twins of the canonical addresses: the node's last octet, the Pod's last octet. */
const v6 = (ip: string, prefix: string) => `${prefix}${ip.split('.').at(-1) ?? '0'}`;

/** The canonical cluster made dual-stack (IPv4 first, as kubeadm's `--service-cidr=v4,v6`). */
function dualStack(): ScenarioObject[] {
  return canonicalObjects().map((o) => {
    const x = structuredClone(o) as unknown as Rec;
    const status = x.status as Rec | undefined;
    const spec = x.spec as Rec | undefined;
    if (o.kind === 'Node' && status) {
      const addrs = status.addresses as { type: string; address: string }[];
      const internal = addrs.find((a) => a.type === 'InternalIP');
      if (internal) addrs.push({ type: 'InternalIP', address: v6(internal.address, 'fd00:10::') });
    }
    if (o.kind === 'Pod' && status && typeof status.podIP === 'string')
      status.podIPs = [{ ip: status.podIP }, { ip: v6(status.podIP, 'fd00:244::') }];
    if (o.kind === 'Service' && spec && typeof spec.clusterIP === 'string') {
      spec.ipFamilyPolicy = 'PreferDualStack';
      spec.ipFamilies = ['IPv4', 'IPv6'];
      spec.clusterIPs = [spec.clusterIP, 'fd00:96::50'];
    }
    return x as unknown as ScenarioObject;
  });
}

const asText = (objects: readonly object[]) => objects.map((o) => stringify(o)).join('---\n');

/** Every address-looking token of a node's rules (IPv4 dotted quads, IPv6 groups). */
function rulesText(objects: readonly ScenarioObject[], mode: string): string {
  const withMode = objects.map((o) =>
    o.kind === 'KubeProxyConfiguration' ? ({ ...o, mode } as ScenarioObject) : o,
  );
  const result = runScene(withMode, DEFAULT_SCENE);
  return Object.values(result.rules)
    .flatMap((r) => r.lines.map((l) => l.text))
    .join('\n');
}

describe('IPv6 on a dual-stack cluster: the IPv4 family keeps working', () => {
  const objects = dualStack();
  const imported = importSources([{ name: '', text: asText(objects) }]);

  it('validates, with a warning at each IPv6 value and no error', () => {
    expect(imported.errors).toBe(0);
    expect(imported.blocked).toBe('');
    const paths = imported.problems.map((p) => `${p.object} ${p.path}`);
    expect(paths).toContain('Service default/web spec.clusterIPs[1]');
    expect(paths).toContain('Pod default/web-6d8f9c7b5-x2k4p status.podIPs[1].ip');
    expect(paths.some((p) => /^Node \S+ status\.addresses\[\d\]\.address$/.test(p))).toBe(true);
    for (const p of imported.problems) {
      expect(p.severity).toBe('warning');
      expect(p.message).toContain(`${p.path}: ${NOT_MODELLED}: `);
      expect(p.line).toBeGreaterThan(0);
    }
  });

  it('traces exactly as the IPv4-only cluster does', () => {
    const single = runScene(canonicalObjects(), DEFAULT_SCENE);
    const dual = runScene(imported.objects.slice(0, imported.given), DEFAULT_SCENE);
    expect(dual.trace.outcome).toEqual(single.trace.outcome);
    // Same places, same packets (addresses and ports) at every step.
    const shape = (t: typeof single.trace) => t.steps.map((s) => [s.at, s.before, s.after]);
    expect(shape(dual.trace)).toEqual(shape(single.trace));
    expect(dual.trace.steps.length).toBeGreaterThan(5);
    expect(dual.cluster.nodes.map((n) => n.internalIP)).toEqual(
      single.cluster.nodes.map((n) => n.internalIP),
    );
    expect(dual.cluster.pods.map((p) => p.ip)).toEqual(single.cluster.pods.map((p) => p.ip));
  });

  for (const mode of ['iptables', 'nftables', 'ipvs'])
    it(`${mode}: writes no IPv6 address into the IPv4 proxier's rules`, () => {
      const text = rulesText(objects, mode);
      expect(text).not.toMatch(/fd00:/);
      const v4 = objects.find((o) => o.kind === 'Service' && o.spec?.type === 'LoadBalancer');
      const clusterIP = v4?.kind === 'Service' ? (v4.spec?.clusterIP ?? '') : '';
      expect(clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(text).toContain(clusterIP);
    });
});

describe('IPv6-only objects are named, never read as "no address"', () => {
  const lb = canonicalObjects().find(
    (o): o is Extract<ScenarioObject, { kind: 'Service' }> =>
      o.kind === 'Service' && o.spec?.type === 'LoadBalancer',
  );
  const key = `${lb?.metadata?.namespace ?? 'default'}/${lb?.metadata?.name ?? ''}`;

  it('an IPv6-only Service among IPv4 ones is left out, as the IPv4 proxier leaves it out', () => {
    const extra = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'v6-only', namespace: 'default' },
      spec: {
        type: 'ClusterIP',
        ipFamilies: ['IPv6'],
        clusterIP: 'fd00:96::77',
        clusterIPs: ['fd00:96::77'],
        ports: [{ port: 80 }],
      },
    };
    const imported = importSources([{ name: '', text: asText([...canonicalObjects(), extra]) }]);
    expect(imported.blocked).toBe('');
    const warning = imported.problems.find((p) => p.object === 'Service default/v6-only');
    expect(warning?.path).toBe('spec.clusterIPs[0]');
    expect(warning?.message).toContain(`${NOT_MODELLED}: "fd00:96::77"`);
    const result = runScene(imported.objects.slice(0, imported.given), DEFAULT_SCENE);
    expect(result.cluster.services.map((s) => `${s.namespace}/${s.name}`)).not.toContain(
      'default/v6-only',
    );
    expect(
      result.cluster.assumed.some((a) => a.includes('default/v6-only') && a.includes(NOT_MODELLED)),
    ).toBe(true);
    expect(result.serviceKey).toBe(key);
  });

  it('an EndpointSlice of addressType IPv6 is ignored, and says so at addressType', () => {
    const slice = {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: 'web-v6',
        namespace: lb?.metadata?.namespace ?? 'default',
        labels: { 'kubernetes.io/service-name': lb?.metadata?.name ?? '' },
      },
      addressType: 'IPv6',
      endpoints: [{ addresses: ['fd00:244::99'], nodeName: 'node-a' }],
      ports: [{ port: 8080, protocol: 'TCP' }],
    };
    const imported = importSources([{ name: '', text: asText([...canonicalObjects(), slice]) }]);
    const warning = imported.problems.find((p) => p.object.endsWith('/web-v6'));
    expect(warning).toMatchObject({ severity: 'warning', path: 'addressType' });
    const result = runScene(imported.objects.slice(0, imported.given), DEFAULT_SCENE);
    const all = Object.values(result.cluster.endpoints).flat();
    expect(all.map((e) => e.ip)).not.toContain('fd00:244::99');
  });

  it('a cluster whose nodes are IPv6-only is refused with the reason, not traced', () => {
    const objects = dualStack().map((o) => {
      if (o.kind !== 'Node') return o;
      const addresses = (o.status?.addresses ?? []).filter((a) => a.address.includes(':'));
      return { ...o, status: { ...o.status, addresses } } as ScenarioObject;
    });
    const imported = importSources([{ name: 'cluster.yaml', text: asText(objects) }]);
    expect(imported.blocked).toMatch(
      new RegExp(`^${NOT_MODELLED}: Node \\S+ has only IPv6 InternalIPs$`),
    );
    const node = imported.problems.find((p) => p.object.startsWith('Node '));
    expect(node?.message).toContain("is this node's only InternalIP");
    expect(node?.source).toBe('cluster.yaml');
  });

  it('an IPv6-only ingress is shown, and the warning says there is nothing to dial', () => {
    const objects = canonicalObjects().map((o) =>
      o === lb || (o.kind === 'Service' && o.spec?.type === 'LoadBalancer')
        ? ({
            ...o,
            status: { loadBalancer: { ingress: [{ ip: '2001:db8::10' }] } },
          } as ScenarioObject)
        : o,
    );
    const imported = importSources([{ name: '', text: asText(objects) }]);
    const w = imported.problems.find((p) => p.path === 'status.loadBalancer.ingress[0].ip');
    expect(w?.message).toBe(
      `status.loadBalancer.ingress[0].ip: ${NOT_MODELLED}: "2001:db8::10" is shown in EXTERNAL-IP, but it is the only address, so there is nothing the model can dial`,
    );
  });

  it("an invalid address is the API server's error, not an IPv6 warning", () => {
    const objects = dualStack().map((o) =>
      o.kind === 'Service' && o.spec?.clusterIPs
        ? ({
            ...o,
            spec: { ...o.spec, clusterIPs: [o.spec.clusterIP, 'fd00::zz'] },
          } as ScenarioObject)
        : o,
    );
    const imported = importSources([{ name: '', text: asText(objects) }]);
    const atField = imported.problems.filter((p) => p.path === 'spec.clusterIPs[1]');
    expect(atField.every((p) => !p.message.includes(NOT_MODELLED))).toBe(true);
  });
});
