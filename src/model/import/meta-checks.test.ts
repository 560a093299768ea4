/**
 * Names, JSON types and ClusterIPs as the API server checks them, so that what the validator
 * accepts the model can run (issue 15 points 8 and 9). Expected texts are apimachinery's:
 * pkg/util/validation/validation.go (`IsDNS1123Subdomain`, `IsDNS1123Label`, `IsDNS1035Label`,
 * `RegexError`, `MaxLenError`), pkg/api/validation/objectmeta.go (`name or generateName is
 * required`), pkg/apis/core/validation/validation.go (`ValidateService`: `IsValidIP` on each
 * `spec.clusterIPs[i]`, which the API server fills from `spec.clusterIP`).
 */
import { describe, expect, it } from 'vitest';
import { validateText } from './validate';
import { importSources } from './importer';
import { runScene } from '../index';
import { DEFAULT_SCENE } from '../scenario/scene';

const node = (name: string, extra = '') =>
  `apiVersion: v1\nkind: Node\nmetadata:\n  name: ${name}\nstatus:\n  addresses: [{type: InternalIP, address: 192.168.0.11}]\n${extra}`;
const service = (name: string, spec = '  ports: [{port: 80}]\n', ns = 'default') =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n${spec}`;
const messages = (text: string) => validateText(text).problems.map((p) => p.message);

const SUBDOMAIN_DETAIL =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_DETAIL =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const LABEL_DETAIL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('metadata.name and metadata.namespace', () => {
  it('a Node named -1 is refused (it broke the topology panel once)', () => {
    expect(messages(node('"-1"'))).toEqual([
      `metadata.name: Invalid value: "-1": ${SUBDOMAIN_DETAIL}`,
    ]);
  });

  it('names with " or > never get in', () => {
    expect(messages(node(`'a"b'`))).toEqual([
      `metadata.name: Invalid value: "a\\"b": ${SUBDOMAIN_DETAIL}`,
    ]);
    expect(messages(node(`'x><img>'`))[0]).toMatch(/^metadata\.name: Invalid value: "x><img>": /);
  });

  it('a Service name is a DNS-1035 label: no leading digit, no dots, at most 63', () => {
    expect(messages(service('1web'))).toEqual([
      `metadata.name: Invalid value: "1web": ${DNS1035_DETAIL}`,
    ]);
    expect(messages(service('a'.repeat(64)))).toEqual([
      `metadata.name: Invalid value: "${'a'.repeat(64)}": must be no more than 63 characters`,
    ]);
    expect(messages(service('web'))).toEqual([]);
  });

  it('the namespace is an RFC 1123 label', () => {
    expect(messages(service('web', undefined, 'Shop'))).toEqual([
      `metadata.namespace: Invalid value: "Shop": ${LABEL_DETAIL}`,
    ]);
  });

  it('a missing name is required (unless generateName is given)', () => {
    const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  namespace: default\n';
    expect(messages(text)).toEqual([
      'metadata.name: Required value: name or generateName is required',
    ]);
    expect(messages(`${text}  generateName: web-\n`)).toEqual([]);
  });
});

describe('JSON types the model reads are checked, and nulls read as Go reads them', () => {
  it('status.conditions as a string is refused at its line (it threw a TypeError in the model)', () => {
    const { problems } = validateText(node('node-1', '  conditions: ""\n'));
    expect(problems).toMatchObject([
      {
        severity: 'error',
        path: 'status.conditions',
        line: 7,
        message: 'status.conditions: Invalid value: "": must be a list',
      },
    ]);
  });

  it('one fault found by two rules is said once', () => {
    const text = service('web', '  ports: [{port: "80"}]\n');
    expect(messages(text).filter((m) => m.startsWith('spec.ports[0].port:'))).toEqual([
      'spec.ports[0].port: Invalid value: "80": must be an integer',
    ]);
  });

  it('null items and null fields are their zero values, and the model runs them', () => {
    const text = [
      node('node-1', '  conditions: [null, {type: Ready, status: "True"}]\n'),
      '---',
      service(
        'web',
        '  type: LoadBalancer\n  clusterIP: 10.96.0.50\n  selector: null\n  ports: [{port: 80, nodePort: 31000, targetPort: 8080}]\n',
      ),
    ].join('\n');
    const imported = importSources([{ name: '', text }]);
    expect(imported.errors).toBe(0);
    const n = imported.objects.find((o) => o.kind === 'Node');
    expect(n?.kind === 'Node' ? n.status?.conditions : undefined).toEqual([
      {},
      { type: 'Ready', status: 'True' },
    ]);
    expect(() => runScene(imported.objects, DEFAULT_SCENE)).not.toThrow();
  });

  it('a null port is a port with no number, refused at its line as the API server refuses {}', () => {
    // Go decodes `null` in []ServicePort to ServicePort{}: port 0 fails IsValidPortNum, and a
    // multi-port Service needs every port named (validateServicePort, validation.go).
    const text = service('web', '  ports:\n  - null\n  - {name: http, port: 80}\n');
    const { problems } = validateText(text);
    expect(problems).toMatchObject([
      { path: 'spec.ports[0].name', line: 8, message: 'spec.ports[0].name: Required value' },
      {
        path: 'spec.ports[0].port',
        line: 8,
        message: 'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      },
    ]);
  });

  it('a __proto__ key stays a key, and pollutes nothing', () => {
    const text = service('web', '  ports: [{port: 80}]\n  __proto__: {polluted: 1}\n');
    const { objects } = validateText(text);
    expect(Object.getPrototypeOf(objects[0]?.kind === 'Service' ? objects[0].spec : null)).toBe(
      Object.prototype,
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('spec.clusterIP is a valid IP or None', () => {
  const detail = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

  it('is reported as clusterIPs[0], at the clusterIP line', () => {
    const { problems } = validateText(
      service('web', '  clusterIP: 10.96.0\n  ports: [{port: 80}]\n'),
    );
    expect(problems).toMatchObject([
      {
        path: 'spec.clusterIP',
        line: 7,
        message: `spec.clusterIPs[0]: Invalid value: "10.96.0": ${detail}`,
      },
    ]);
  });

  it('each entry of clusterIPs is checked; None is allowed first', () => {
    expect(
      messages(service('web', '  clusterIPs: [10.96.0.50, "fd00::zz"]\n  ports: [{port: 80}]\n')),
    ).toEqual([`spec.clusterIPs[1]: Invalid value: "fd00::zz": ${detail}`]);
    expect(messages(service('web', '  clusterIP: None\n  ports: [{port: 80}]\n'))).toEqual([]);
  });
});
