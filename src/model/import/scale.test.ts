/**
 * The import at scale gives the answers it gave before its lookups were indexed:
 * - `fillGaps` equals the pre-index implementation (./testing/fill.reference.ts) on generated
 *   clusters with parts left out (no EndpointSlices, no Nodes, some Nodes, Pods on a few
 *   nodes, several Services, Pods whose /24s clash);
 * - `validateAndLoad` gives `validateText`'s objects and problems and `loadObjects`' skipped
 *   kinds, from one parse;
 * - the selector warnings equal a brute-force reading of every Pod for every Service.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ScenarioObject } from '../k8s/objects';
import { generatedCluster } from '../scenario/generated';
import { fillGaps } from './fill';
import { loadObjects } from './load';
import { fillGaps as fillGapsReference } from './testing/fill.reference';
import { validateAndLoad, validateText } from './validate';

const without = (objects: ScenarioObject[], ...kinds: string[]) =>
  objects.filter((o) => !kinds.includes(o.kind));

/** Extra Services: one selecting a subset by a second label, one selecting nothing. */
function extraServices(): ScenarioObject[] {
  // With ClusterIPs, as the API server stores them: the pre-index filler allocates none.
  const svc = (name: string, selector: Record<string, string>): ScenarioObject => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: {
      type: 'LoadBalancer',
      clusterIP: `10.96.0.${name.length + 10}`,
      selector,
      ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }],
    },
    status: { loadBalancer: { ingress: [{ ip: `203.0.113.${name.length + 10}` }] } },
  });
  return [svc('web-a', { app: 'web', tier: 'a' }), svc('nobody', { app: 'none' })];
}

/** Labels every third Pod `tier: a`. */
function tiered(objects: ScenarioObject[]): ScenarioObject[] {
  let k = 0;
  return objects.map((o) => {
    if (o.kind !== 'Pod') return o;
    const labels = { ...(o.metadata?.labels ?? {}), ...(k++ % 3 === 0 ? { tier: 'a' } : {}) };
    return { ...o, metadata: { ...o.metadata, labels } };
  });
}

describe('fillGaps at scale equals the pre-index implementation', () => {
  const cases: [string, () => ScenarioObject[]][] = [
    ['whole cluster, 10 nodes / 1,000 Pods', () => generatedCluster({ nodes: 10, pods: 1000 })],
    [
      'no EndpointSlices, 40 nodes / 400 Pods',
      () => without(generatedCluster({ nodes: 40, pods: 400 }), 'EndpointSlice'),
    ],
    [
      'no Nodes, no EndpointSlices, no kube-proxy config, 60 nodes / 300 Pods',
      () =>
        without(
          generatedCluster({ nodes: 60, pods: 300 }),
          'Node',
          'EndpointSlice',
          'KubeProxyConfiguration',
        ),
    ],
    [
      'every other Node missing, Pods on 20 of 50 nodes',
      () => {
        let k = 0;
        return generatedCluster({ nodes: 50, pods: 400, spreadOver: 20 }).filter(
          (o) => o.kind !== 'Node' || k++ % 2 === 0,
        );
      },
    ],
    [
      'a given Node with a /16 podCIDR holding the missing nodes’ /24s',
      () => {
        let k = 0;
        return generatedCluster({ nodes: 20, pods: 200 })
          .filter((o) => o.kind !== 'Node' || k++ < 3)
          .map((o) =>
            o.kind === 'Node' && o.metadata?.name === 'node-1'
              ? { ...o, spec: { podCIDR: '10.244.0.0/16', podCIDRs: ['10.244.0.0/16'] } }
              : o,
          );
      },
    ],
    [
      'several Services, tiered Pods, no slices, no client, no balancer',
      () =>
        tiered([
          ...without(
            generatedCluster({ nodes: 30, pods: 600 }),
            'EndpointSlice',
            'Client',
            'CloudLoadBalancer',
          ),
          ...extraServices(),
        ]),
    ],
    [
      'missing nodes whose Pods share /24s (podCIDR clashes), placeholders past pod networks',
      () => {
        const objs = without(generatedCluster({ nodes: 12, pods: 240 }), 'Node', 'EndpointSlice');
        // Pods of node-2k and node-2k+1 all on node-2k's /24: neither /24 is unambiguous.
        return objs.map((o) => {
          if (o.kind !== 'Pod' || !o.spec?.nodeName) return o;
          const n = Number(o.spec.nodeName.slice('node-'.length));
          const ip = o.status?.podIP ?? '';
          const moved = n % 2 === 1 ? ip.replace(/^10\.244\.\d+\./, `10.244.${n - 1}.`) : ip;
          return { ...o, status: { ...o.status, podIP: moved.replace(/\.(\d+)$/, '.1$1') } };
        });
      },
    ],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      const objects = make();
      expect(fillGaps(objects)).toEqual(fillGapsReference(objects));
    });
  }
});

describe('validateAndLoad: one parse for the checks and the loader', () => {
  const texts: [string, string][] = [
    [
      'a generated cluster with a Deployment and a List',
      [
        ...generatedCluster({ nodes: 3, pods: 12 }).map((o) => stringify(o)),
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n',
        'kind: List\nitems:\n  - kind: ConfigMap\n    metadata: {name: c}\n  - kind: Node\n    metadata: {name: n9}\n  - plain\n',
        'just a scalar\n',
      ].join('---\n'),
    ],
    ['a top-level JSON list', '[{"kind":"Secret","metadata":{"name":"s"}},{"kind":"Node"}]'],
    ['no kind the model reads', 'kind: Deployment\nmetadata: {name: web}\n'],
    ['a syntax error', 'kind: Service\n---\nkind: Deployment\nmetadata: {name: [\n'],
  ];
  for (const [name, text] of texts) {
    it(name, () => {
      const r = validateAndLoad(text);
      expect({ objects: r.objects, problems: r.problems }).toEqual(validateText(text));
      let skipped: string[] = [];
      try {
        skipped = loadObjects(text).skipped;
      } catch (_) {
        // loadObjects throws on a syntax error or when nothing is of a kind the model reads.
      }
      expect(r.skipped).toEqual(skipped);
    });
  }
});

describe('selector warnings, indexed, equal reading every Pod for every Service', () => {
  const label = fc.constantFrom('a', 'b', 'c');
  const labels = fc.dictionary(fc.constantFrom('app', 'tier', 'x'), label, { maxKeys: 3 });
  const ns = fc.constantFrom('default', 'shop');
  it('on random Pods and Services', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ns, labels }), { maxLength: 12 }),
        fc.array(fc.record({ ns, selector: labels }), { minLength: 1, maxLength: 6 }),
        (pods, services) => {
          const objects = [
            ...services.map((s, i) => ({
              apiVersion: 'v1',
              kind: 'Service',
              metadata: { name: `s${i}`, namespace: s.ns },
              spec: { selector: s.selector, ports: [{ port: 80 }] },
            })),
            ...pods.map((p, i) => ({
              apiVersion: 'v1',
              kind: 'Pod',
              metadata: { name: `p${i}`, namespace: p.ns, labels: p.labels },
            })),
          ];
          const warned = validateText(JSON.stringify(objects))
            .problems.filter((p) => p.path === 'spec.selector')
            .map((p) => p.object);
          const expected = services.flatMap((s, i) => {
            const sel = Object.entries(s.selector);
            if (pods.length === 0 || sel.length === 0) return [];
            const hit = pods.some((p) => p.ns === s.ns && sel.every(([k, v]) => p.labels[k] === v));
            return hit ? [] : [`Service ${s.ns}/s${i}`];
          });
          expect(warned).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });
});
