/**
 * validateText beyond the Service spec rules: EndpointSlice, Node and Pod checks, a Service's
 * status.loadBalancer.ingress (validation.go `ValidateLoadBalancerStatus`), the warnings,
 * syntax errors, and positions in a `kind: List`, in several documents and in JSON.
 * Sources: pkg/apis/discovery/validation/validation.go (`validateAddressType`,
 * `validateEndpoints`), pkg/apis/core/validation/validation.go (`ValidateEndpointIP`,
 * `validatePodIPs`), apimachinery util/validation/ip.go (`IsValidIP`, `IsValidIPv4Address`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadObjects } from './load';
import { validateText, type Problem } from './validate';

const fixture = (name: string): string => readFileSync(`src/model/import/fixtures/${name}`, 'utf8');
const problems = (text: string): Problem[] => validateText(text).problems;
const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

describe('EndpointSlice', () => {
  const slice = (body: string): string =>
    `apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: web-1\n  namespace: default\n${body}`;
  const err = (path: string, message: string, line: number, column: number): Problem => ({
    severity: 'error',
    object: 'EndpointSlice default/web-1',
    path,
    message,
    line,
    column,
  });

  it('addressType is required, and one of FQDN, IPv4, IPv6', () => {
    expect(problems(slice('endpoints: []\n'))).toEqual([
      err('addressType', 'addressType: Required value', 1, 1),
    ]);
    expect(problems(slice('addressType: IP\n'))).toEqual([
      err(
        'addressType',
        'addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"',
        6,
        14,
      ),
    ]);
  });

  it('each endpoint needs an address; IPv4 addresses are IPv4 and not special', () => {
    const text = slice(`addressType: IPv4
endpoints:
  - addresses: []
  - addresses:
      - 10.0.0.300
      - fd00::1
      - 0.0.0.0
      - 10.244.1.5
`);
    const a = 'endpoints[1].addresses';
    expect(problems(text)).toEqual([
      err(
        'endpoints[0].addresses',
        'endpoints[0].addresses: Required value: must contain at least 1 address',
        8,
        16,
      ),
      err(`${a}[0]`, `${a}[0]: Invalid value: "10.0.0.300": must be a valid IPv4 address`, 10, 9),
      err(`${a}[0]`, `${a}[0]: Invalid value: "10.0.0.300": must be a valid IP address`, 10, 9),
      err(`${a}[1]`, `${a}[1]: Invalid value: "fd00::1": must be a valid IPv4 address`, 11, 9),
      err(`${a}[2]`, `${a}[2]: Invalid value: "0.0.0.0": may not be unspecified (0.0.0.0)`, 12, 9),
    ]);
  });

  it('a port outside 1-65535 (our check: upstream validatePorts does not range-check)', () => {
    const text = slice('addressType: IPv4\nports:\n  - port: 70000\n    protocol: TCP\n');
    expect(problems(text)).toEqual([
      err(
        'ports[0].port',
        'ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        8,
        11,
      ),
    ]);
  });
});

describe('Node and Pod addresses', () => {
  it('InternalIP and ExternalIP must be IP addresses (ours: the API server does not check)', () => {
    const text = `apiVersion: v1
kind: Node
metadata:
  name: node-1
status:
  addresses:
    - type: InternalIP
      address: node-1
    - type: Hostname
      address: node-1
    - type: ExternalIP
      address: 203.0.113.300
`;
    const at = (i: number, v: string, line: number): Problem => ({
      severity: 'error',
      object: 'Node node-1',
      path: `status.addresses[${i}].address`,
      message: `status.addresses[${i}].address: Invalid value: "${v}": ${IP}`,
      line,
      column: 16,
    });
    expect(problems(text)).toEqual([at(0, 'node-1', 8), at(2, '203.0.113.300', 12)]);
  });

  it('status.podIP and status.podIPs[].ip must be IP addresses', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: {name: p}
status:
  podIP: 10.244.1.
  podIPs:
    - ip: fd00::g
`;
    expect(problems(text).map((p) => [p.message, p.line, p.column])).toEqual([
      [`status.podIP: Invalid value: "10.244.1.": ${IP}`, 5, 10],
      [`status.podIPs[0].ip: Invalid value: "fd00::g": ${IP}`, 7, 11],
    ]);
  });
});

describe('status.loadBalancer.ingress (V: ValidateLoadBalancerStatus)', () => {
  // A LoadBalancer Service default/web; the ingress list starts on line 12.
  const lb = (ingress: string): string =>
    `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: default\nspec:\n  type: LoadBalancer\n  ports: [{port: 80}]\nstatus:\n  loadBalancer:\n    ingress:\n${ingress}`;
  const error = (path: string, message: string, line: number, column: number): Problem => ({
    severity: 'error',
    object: 'Service default/web',
    path,
    message,
    line,
    column,
  });

  it('unknown ipMode', () => {
    expect(problems(lb('      - ip: 203.0.113.7\n        ipMode: Direct\n'))).toEqual([
      error(
        'status.loadBalancer.ingress[0].ipMode',
        'status.loadBalancer.ingress[0].ipMode: Unsupported value: "Direct": supported values: "Proxy", "VIP"',
        13,
        17,
      ),
    ]);
  });

  it('ipMode without ip', () => {
    expect(problems(lb('      - hostname: lb.example.com\n        ipMode: Proxy\n'))).toEqual([
      error(
        'status.loadBalancer.ingress[0].ipMode',
        'status.loadBalancer.ingress[0].ipMode: Forbidden: may not be specified when `ip` is not set',
        13,
        17,
      ),
    ]);
  });

  it('ip without ipMode is accepted: the API server defaults ipMode to VIP', () => {
    expect(problems(lb('      - ip: 203.0.113.7\n'))).toEqual([]);
  });
});

describe('warnings (ours)', () => {
  const service = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
    - port: 80
      targetPort: http
---
`;
  const pod = (ns: string, app: string, port: string): string =>
    `apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ${ns}, labels: {app: ${app}}}
spec:
  containers:
    - name: c
      ports: [{name: ${port}, containerPort: 8080}]
`;

  it('a selector that matches no Pod of the input (Pods in other namespaces do not count)', () => {
    expect(problems(service + pod('default', 'db', 'http'))).toEqual([
      {
        severity: 'warning',
        object: 'Service default/web',
        path: 'spec.selector',
        message: 'spec.selector: no Pod in the input matches app=web',
        line: 5,
        column: 13,
      },
    ]);
    expect(problems(service + pod('shop', 'web', 'http')).map((p) => p.message)).toEqual([
      'spec.selector: no Pod in the input matches app=web',
    ]);
  });

  it('no warning without Pods in the input, or when a Pod matches', () => {
    expect(problems(service)).toEqual([]);
    expect(problems(service + pod('default', 'web', 'http'))).toEqual([]);
  });

  it('a named targetPort that no selected Pod declares', () => {
    expect(problems(service + pod('default', 'web', 'web'))).toEqual([
      {
        severity: 'warning',
        object: 'Service default/web',
        path: 'spec.ports[0].targetPort',
        message:
          'spec.ports[0].targetPort: no selected Pod declares a TCP container port named "http", so this port has no endpoints',
        line: 8,
        column: 19,
      },
    ]);
  });
});

describe('syntax errors, several documents, kind: List, JSON', () => {
  it('a syntax error is a problem naming line and column; the other documents are still read', () => {
    const text =
      'kind: Pod\nmetadata: {name: a}\nstatus: {podIP: x}\n---\nmetadata:\n  name: [web\n';
    const r = validateText(text);
    expect(r.objects).toHaveLength(1);
    expect(r.problems).toHaveLength(2);
    expect(r.problems[0]).toMatchObject({ object: 'Pod default/a', line: 3, column: 17 });
    expect(r.problems[1]).toMatchObject({ severity: 'error', object: '', path: '' });
    expect(r.problems[1]!.message).toMatch(/^line (\d+), column (\d+): \S/);
    const [, line, column] = /^line (\d+), column (\d+)/.exec(r.problems[1]!.message)!;
    expect([r.problems[1]!.line, r.problems[1]!.column]).toEqual([Number(line), Number(column)]);
    expect(r.problems[1]!.line).toBeGreaterThanOrEqual(6);
  });

  it('kind: List: paths relative to the item, positions in the original text', () => {
    const r = validateText(fixture('list.yaml'));
    expect(r.objects.map((o) => o.kind)).toEqual(['Service', 'Pod']);
    expect(r.problems.map((p) => [p.object, p.message, p.line, p.column])).toEqual([
      [
        'Service shop/web',
        "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
        13,
        21,
      ],
      ['Pod shop/web-1', `status.podIP: Invalid value: "10.244.1.300": ${IP}`, 25, 14],
    ]);
  });

  it('kind: List as kubectl prints it (unindented sequences)', () => {
    const text = `apiVersion: v1
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: n1
- apiVersion: v1
  kind: Node
  metadata:
    name: n2
  status:
    addresses:
    - address: 10.0.0.256
      type: InternalIP
kind: List
`;
    expect(problems(text).map((p) => [p.object, p.path, p.line, p.column])).toEqual([
      ['Node n2', 'status.addresses[0].address', 13, 16],
    ]);
  });

  it('several documents: cross-object NodePort clash, positions per document', () => {
    expect(
      problems(fixture('multi.yaml')).map((p) => [p.object, p.message, p.line, p.column]),
    ).toEqual([
      [
        'EndpointSlice default/a-1',
        'endpoints[0].addresses: Required value: must contain at least 1 address',
        18,
        16,
      ],
      [
        'EndpointSlice default/a-1',
        'endpoints[1].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
        21,
        9,
      ],
      [
        'Service other/b',
        'spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
        32,
        17,
      ],
    ]);
  });

  it('JSON: positions in the JSON text', () => {
    expect(problems(fixture('web.json')).map((p) => [p.path, p.message, p.line, p.column])).toEqual(
      [
        [
          'spec.ports[0].targetPort',
          'spec.ports[0].targetPort: Invalid value: "8080": must contain at least one letter (a-z)',
          9,
          43,
        ],
        [
          'spec.healthCheckNodePort',
          'Internal error occurred: failed to allocate requested HealthCheck NodePort 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
          8,
          28,
        ],
      ],
    );
  });

  it('a top-level JSON array of objects', () => {
    const text =
      '[{"kind": "Pod", "metadata": {"name": "a"}},\n {"kind": "Pod", "metadata": {"name": "b"}, "status": {"podIP": "x"}}]';
    expect(problems(text).map((p) => [p.object, p.line, p.column])).toEqual([
      ['Pod default/b', 2, 65],
    ]);
  });
});

describe('whole inputs', () => {
  it('the shipped canonical example has no problem and yields the loader objects', () => {
    const text = readFileSync('public/examples/canonical.yaml', 'utf8');
    const r = validateText(text);
    expect(r.problems).toEqual([]);
    expect(r.objects).toEqual(loadObjects(text).objects);
  });

  it('unknown kinds are skipped without problems', () => {
    const r = validateText(
      'apiVersion: apps/v1\nkind: Deployment\nspec: {ports: 5}\n---\nplain text\n',
    );
    expect(r).toEqual({ objects: [], problems: [] });
  });

  it('reports every problem at once, in input order', () => {
    const text = `apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  type: NodePort
  sessionAffinity: Sticky
  ports: [{port: 0, nodePort: 1}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
status: {podIP: nope}
`;
    expect(problems(text).map((p) => p.path)).toEqual([
      'spec.ports[0].nodePort',
      'spec.ports[0].port',
      'spec.sessionAffinity',
      'status.podIP',
    ]);
  });

  it('an alias bomb is a problem, not a hang or a throw', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const r = validateText(lines.join('\n'));
    expect(r.objects).toEqual([]);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.message).toMatch(/alias/i);
  });
});
