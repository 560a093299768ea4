/**
 * Service rules of validateText, one test per rule, each with the exact message the API
 * server prints and the line/column of the offending value. Sources:
 * - V: kubernetes/kubernetes pkg/apis/core/validation/validation.go (`ValidateService`,
 *   `validateServicePort`, `validateServiceExternalTrafficPolicy`, `ValidateLoadBalancerStatus`,
 *   `validateClientIPAffinityConfig`)
 * - A: pkg/registry/core/service/storage/alloc.go (`initNodePorts`, `allocHealthCheckNodePort`)
 *   with the portallocator's errors
 * - M: k8s.io/apimachinery/pkg/util/validation (IsValidPortNum, IsValidPortName, ip.go) and
 *   field/errors.go for the line format.
 */
import { describe, expect, it } from 'vitest';
import { validateText, type Problem } from './validate';

/** A Service `default/web` whose spec is `body` (indented by two spaces); the body starts on line 7. */
function svc(body: string, tail = ''): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: default
spec:
${body.replace(/^\n/, '')}${tail}`;
}

function error(path: string, message: string, line: number, column: number): Problem {
  return { severity: 'error', object: 'Service default/web', path, message, line, column };
}

const problems = (text: string): Problem[] => validateText(text).problems;

describe('Service ports (V: validateServicePort, M: IsValidPortNum/IsValidPortName)', () => {
  it('port outside 1-65535', () => {
    const text = svc(`
  ports:
    - port: 70000
`);
    expect(problems(text)).toEqual([
      error(
        'spec.ports[0].port',
        'spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive',
        8,
        13,
      ),
    ]);
  });

  it('numeric targetPort outside 1-65535 (0 is defaulted to port and accepted)', () => {
    const text = svc(`
  ports:
    - port: 80
      targetPort: 65536
    - name: b
      port: 81
      targetPort: 0
`);
    expect(problems(text)).toEqual([
      error('spec.ports[0].name', 'spec.ports[0].name: Required value', 8, 7),
      error(
        'spec.ports[0].targetPort',
        'spec.ports[0].targetPort: Invalid value: 65536: must be between 1 and 65535, inclusive',
        9,
        19,
      ),
    ]);
  });

  it('a quoted number as targetPort is a port name and needs a letter', () => {
    const text = svc(`
  ports:
    - port: 80
      targetPort: "8080"
`);
    expect(problems(text)).toEqual([
      error(
        'spec.ports[0].targetPort',
        'spec.ports[0].targetPort: Invalid value: "8080": must contain at least one letter (a-z)',
        9,
        19,
      ),
    ]);
  });

  it('every broken IANA_SVC_NAME rule of a named targetPort is reported', () => {
    const text = svc(`
  ports:
    - port: 80
      targetPort: -Web--Server-Port-
`);
    const path = 'spec.ports[0].targetPort';
    const head = `${path}: Invalid value: "-Web--Server-Port-": `;
    expect(problems(text)).toEqual(
      [
        'must be no more than 15 characters',
        'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'must not contain consecutive hyphens',
        'must not begin or end with a hyphen',
      ].map((d) => error(path, head + d, 9, 19)),
    );
  });

  it('a value of the wrong type is reported (our wording; the API server fails to decode it)', () => {
    const text = svc(`
  ports:
    - port: "80"
`);
    expect(problems(text)).toEqual([
      error(
        'spec.ports[0].port',
        'spec.ports[0].port: Invalid value: "80": must be an integer',
        8,
        13,
      ),
    ]);
  });

  it('a Service without ports (not headless, not ExternalName)', () => {
    expect(problems(svc('  type: ClusterIP\n'))).toEqual([
      error('spec.ports', 'spec.ports: Required value', 7, 3),
    ]);
  });
});

describe('NodePorts (A: the allocator answers before validation runs)', () => {
  it('outside 30000-32767: the allocator message', () => {
    const text = svc(`
  type: NodePort
  ports:
    - port: 80
      nodePort: 29999
`);
    expect(problems(text)).toEqual([
      error(
        'spec.ports[0].nodePort',
        'spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
        10,
        17,
      ),
    ]);
  });

  it('on a ClusterIP Service: Forbidden (V), and the allocator does not run', () => {
    const text = svc(`
  ports:
    - port: 80
      nodePort: 80
`);
    expect(problems(text)).toEqual([
      error(
        'spec.ports[0].nodePort',
        "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
        9,
        17,
      ),
    ]);
  });

  it('the same NodePort on two ports of one Service: already allocated', () => {
    const text = svc(`
  type: NodePort
  ports:
    - name: a
      port: 80
      nodePort: 30080
    - name: b
      port: 81
      protocol: UDP
      nodePort: 30080
`);
    expect(problems(text)).toEqual([
      error(
        'spec.ports[1].nodePort',
        'spec.ports[1].nodePort: Invalid value: 30080: provided port is already allocated',
        15,
        17,
      ),
    ]);
  });

  it('one port number twice with the same NodePort: the allocator shares it, validation says Duplicate (V)', () => {
    const text = svc(`
  type: NodePort
  ports:
    - name: a
      port: 80
      nodePort: 30080
    - name: b
      port: 80
      nodePort: 30080
`);
    expect(problems(text)).toEqual([
      error('spec.ports[1].nodePort', 'spec.ports[1].nodePort: Duplicate value: 30080', 14, 17),
    ]);
  });

  it('the same NodePort in two Services: the later one is refused', () => {
    const text = `${svc(`
  type: NodePort
  ports:
    - port: 80
      nodePort: 30080
`)}---
${svc(`
  type: LoadBalancer
  ports:
    - port: 80
      nodePort: 30080
`).replace('name: web', 'name: web2')}`;
    expect(problems(text)).toEqual([
      {
        ...error(
          'spec.ports[0].nodePort',
          'spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated',
          21,
          17,
        ),
        object: 'Service default/web2',
      },
    ]);
  });
});

describe('spec.type, sessionAffinity, internalTrafficPolicy (V: NotSupported, sorted values)', () => {
  it('unknown type', () => {
    expect(problems(svc('  type: Public\n  ports: [{port: 80}]\n'))).toEqual([
      error(
        'spec.type',
        'spec.type: Unsupported value: "Public": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
        7,
        9,
      ),
    ]);
  });

  it('unknown sessionAffinity', () => {
    expect(problems(svc('  sessionAffinity: Sticky\n  ports: [{port: 80}]\n'))).toEqual([
      error(
        'spec.sessionAffinity',
        'spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"',
        7,
        20,
      ),
    ]);
  });

  it('clientIP.timeoutSeconds must be in (0, 86400]', () => {
    const text = (t: number): string =>
      svc(`
  ports: [{port: 80}]
  sessionAffinity: ClientIP
  sessionAffinityConfig:
    clientIP:
      timeoutSeconds: ${t}
`);
    const path = 'spec.sessionAffinityConfig.clientIP.timeoutSeconds';
    for (const t of [0, 86401]) {
      expect(problems(text(t))).toEqual([
        error(
          path,
          `${path}: Invalid value: ${t}: must be greater than 0 and less than 86400`,
          11,
          23,
        ),
      ]);
    }
    expect(problems(text(86400))).toEqual([]);
  });

  it('unknown internalTrafficPolicy', () => {
    expect(problems(svc('  ports: [{port: 80}]\n  internalTrafficPolicy: Node\n'))).toEqual([
      error(
        'spec.internalTrafficPolicy',
        'spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"',
        8,
        26,
      ),
    ]);
  });
});

describe('externalTrafficPolicy and healthCheckNodePort (V: validateServiceExternalTrafficPolicy)', () => {
  it('unknown value on an externally-accessible Service', () => {
    const text = svc(
      '  type: LoadBalancer\n  externalTrafficPolicy: Nearest\n  ports: [{port: 80}]\n',
    );
    expect(problems(text)).toEqual([
      error(
        'spec.externalTrafficPolicy',
        'spec.externalTrafficPolicy: Unsupported value: "Nearest": supported values: "Cluster", "Local"',
        8,
        26,
      ),
    ]);
  });

  it('set on a ClusterIP Service without externalIPs (reference §6 wording)', () => {
    const text = svc('  externalTrafficPolicy: Local\n  ports: [{port: 80}]\n');
    expect(problems(text)).toEqual([
      error(
        'spec.externalTrafficPolicy',
        'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
        7,
        26,
      ),
    ]);
    const withExternalIPs = svc(
      '  externalTrafficPolicy: Local\n  externalIPs: [192.0.2.10]\n  ports: [{port: 80}]\n',
    );
    expect(problems(withExternalIPs)).toEqual([]);
  });

  it('healthCheckNodePort when not LoadBalancer + Local (reference §6 wording)', () => {
    const text = svc('  type: NodePort\n  healthCheckNodePort: 30000\n  ports: [{port: 80}]\n');
    expect(problems(text)).toEqual([
      error(
        'spec.healthCheckNodePort',
        "spec.healthCheckNodePort: Invalid value: 30000: may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'",
        8,
        24,
      ),
    ]);
  });

  it('healthCheckNodePort outside the NodePort range: the allocator, as an internal error (A)', () => {
    const text = svc(
      '  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 29999\n  ports: [{port: 80}]\n',
    );
    expect(problems(text)).toEqual([
      error(
        'spec.healthCheckNodePort',
        'Internal error occurred: failed to allocate requested HealthCheck NodePort 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
        9,
        24,
      ),
    ]);
  });

  it('healthCheckNodePort equal to one of the Service NodePorts (A)', () => {
    const text = svc(
      '  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 31000\n  ports: [{port: 80, nodePort: 31000}]\n',
    );
    expect(problems(text)).toEqual([
      error(
        'spec.healthCheckNodePort',
        'Internal error occurred: failed to allocate requested HealthCheck NodePort 31000: provided port is already allocated',
        9,
        24,
      ),
    ]);
  });
});

describe('loadBalancerSourceRanges (V: upstream spells the path spec.LoadBalancerSourceRanges)', () => {
  it('on a non-LoadBalancer Service: Forbidden', () => {
    const text = svc(
      '  type: NodePort\n  loadBalancerSourceRanges: [10.0.0.0/8]\n  ports: [{port: 80}]\n',
    );
    expect(problems(text)).toEqual([
      error(
        'spec.loadBalancerSourceRanges',
        "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
        8,
        29,
      ),
    ]);
  });

  it('an entry that is not a CIDR (M: IsValidCIDR); space padding is tolerated', () => {
    const text = svc(`
  type: LoadBalancer
  ports: [{port: 80}]
  loadBalancerSourceRanges:
    - " 10.0.0.0/8 "
    - 10.0.0.0/33
`);
    expect(problems(text)).toEqual([
      error(
        'spec.loadBalancerSourceRanges[1]',
        'spec.LoadBalancerSourceRanges[1]: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
        11,
        7,
      ),
    ]);
  });
});

describe('one object per kind, namespace and name (kubectl create: AlreadyExists)', () => {
  const node = (name: string) =>
    `- apiVersion: v1\n  kind: Node\n  metadata:\n    name: ${name}\n  status:\n    addresses:\n    - type: InternalIP\n      address: 192.168.0.11\n`;
  it('a List with the same Node twice: the second is an error at its name, with its line', () => {
    const text = `apiVersion: v1\nkind: List\nitems:\n${node('node-1')}${node('node-1')}`;
    const errors = validateText(text).problems.filter((p) => p.severity === 'error');
    expect(errors).toEqual([
      expect.objectContaining({
        object: 'Node node-1',
        path: 'metadata.name',
        message: 'nodes "node-1" already exists',
        // items[1] starts at line 12; its metadata.name is three lines on.
        line: 15,
      }),
    ]);
  });
  it('the same name in another kind or namespace is not a duplicate', () => {
    const text = [
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: a\nspec:\n  containers: [{ name: c, image: i }]',
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: b\nspec:\n  containers: [{ name: c, image: i }]',
      'apiVersion: v1\nkind: Node\nmetadata:\n  name: web',
    ].join('\n---\n');
    expect(validateText(text).problems.filter((p) => p.message.includes('already exists'))).toEqual(
      [],
    );
  });
});
