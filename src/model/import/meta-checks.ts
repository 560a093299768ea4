/**
 * `metadata.name` and `metadata.namespace`, as the API server checks them
 * (apimachinery pkg/api/validation/objectmeta.go `ValidateObjectMeta`, with each kind's name
 * rule from pkg/apis/core/validation/validation.go and discovery/networking validation):
 * - Service: `ValidateServiceName` = `NameIsDNS1035Label`;
 * - Node, Pod, EndpointSlice, ServiceCIDR: `NameIsDNSSubdomain`;
 * - the namespace of a namespaced object: `ValidateNamespaceName` = `NameIsDNSLabel`.
 * Messages are apimachinery's (pkg/util/validation/validation.go `IsDNS1123Subdomain`,
 * `IsDNS1123Label`, `IsDNS1035Label`, with `RegexError` and `MaxLenError`), one
 * `field.Invalid` per broken rule, and `name or generateName is required` for a missing name.
 * Names then are safe to show and to key on: no `"`, `>` or spaces ever reach the drawing.
 */
import type { Checker, Obj } from './checks';
import { prop } from './checks';
import { invalid, required } from './field';

const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN = `${LABEL}(\\.${LABEL})*`;
const DNS1035 = '[a-z]([-a-z0-9]*[a-z0-9])?';

/** `RegexError(msg, fmt, examples...)`: each example quoted and followed by `, `, joined by ` or `. */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  const e = examples.map((x) => `'${x}', `).join(' or ');
  return `${msg} (e.g. ${e}regex used for validation is '${fmt}')`;
}

interface NameRule {
  max: number;
  regex: RegExp;
  detail: string;
}

const RULES: Record<'subdomain' | 'label' | 'dns1035', NameRule> = {
  subdomain: {
    max: 253,
    regex: new RegExp(`^${SUBDOMAIN}$`),
    detail: regexError(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
      SUBDOMAIN,
      'example.com',
    ),
  },
  label: {
    max: 63,
    regex: new RegExp(`^${LABEL}$`),
    detail: regexError(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
      LABEL,
      'my-name',
      '123-abc',
    ),
  },
  dns1035: {
    max: 63,
    regex: new RegExp(`^${DNS1035}$`),
    detail: regexError(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
      DNS1035,
      'my-name',
      'abc-123',
    ),
  },
};

const NAME_RULE: Record<string, keyof typeof RULES> = {
  Service: 'dns1035',
  Node: 'subdomain',
  Pod: 'subdomain',
  EndpointSlice: 'subdomain',
  ServiceCIDR: 'subdomain',
};

const NAMESPACED = new Set(['Service', 'Pod', 'EndpointSlice']);

function checkName(c: Checker, path: string, value: string, rule: NameRule): void {
  if (value.length > rule.max)
    c.error(path, invalid(path, value, `must be no more than ${rule.max} characters`));
  if (!rule.regex.test(value)) c.error(path, invalid(path, value, rule.detail));
}

/**
 * Checks `metadata.name` (and `metadata.namespace` for namespaced kinds) of one object of
 * `kind`; kinds of ours (CloudLoadBalancer, Client, KubeProxyConfiguration) are not checked
 * here. Wrong JSON types are reported by ./shapes.ts. Never throws.
 */
export function checkObjectMeta(c: Checker, kind: string, obj: Obj): void {
  const rule = NAME_RULE[kind];
  if (!rule) return;
  const meta = prop(obj, 'metadata');
  const name = prop(meta, 'name');
  const generateName = prop(meta, 'generateName');
  if (name === undefined || name === null || name === '') {
    if (typeof generateName !== 'string' || generateName === '')
      c.error('metadata.name', required('metadata.name', 'name or generateName is required'));
  } else if (typeof name === 'string') checkName(c, 'metadata.name', name, RULES[rule]);
  const ns = prop(meta, 'namespace');
  if (NAMESPACED.has(kind) && typeof ns === 'string' && ns !== '')
    checkName(c, 'metadata.namespace', ns, RULES.label);
}
