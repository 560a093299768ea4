/**
 * apimachinery's `field.Error` text, byte for byte
 * (k8s.io/apimachinery/pkg/util/validation/field/errors.go, `Error()` and `ErrorBody()`):
 * `<path>: <type>[: <value>][: <detail>]`, where the value is printed bare for numbers and
 * booleans and quoted (Go `%q`, or JSON for named string types, the same text for plain
 * values) for strings. `Required` and `Forbidden` print no value.
 *
 * Also the detail strings of k8s.io/apimachinery/pkg/util/validation (validation.go, ip.go)
 * that the rules use.
 */

const ESCAPES: Record<string, string> = {
  '\u0007': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Go's `%q` for the strings a manifest holds: escapes quotes, backslashes and control characters. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const esc = ESCAPES[ch];
    const c = ch.codePointAt(0) ?? 0;
    if (esc) out += esc;
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * Renders a bad value as `ErrorBody` does: strings quoted, numbers and booleans bare,
 * anything else as JSON.
 */
export function renderValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v) ?? 'null';
}

/** `field.Invalid(path, value, detail)`. */
export function invalid(path: string, value: unknown, detail: string): string {
  return `${path}: Invalid value: ${renderValue(value)}: ${detail}`;
}

/** `field.Required(path, detail)`. */
export function required(path: string, detail = ''): string {
  return `${path}: Required value${detail ? `: ${detail}` : ''}`;
}

/** `field.Forbidden(path, detail)`. */
export function forbidden(path: string, detail: string): string {
  return `${path}: Forbidden: ${detail}`;
}

/** `field.NotSupported(path, value, validValues)`; pass the values in the order upstream lists them (`sets.List` sorts). */
export function notSupported(path: string, value: unknown, valid: readonly string[]): string {
  return `${path}: Unsupported value: ${renderValue(value)}: supported values: ${valid
    .map(goQuote)
    .join(', ')}`;
}

/** `field.Duplicate(path, value)`. */
export function duplicate(path: string, value: unknown): string {
  return `${path}: Duplicate value: ${renderValue(value)}`;
}

/** `validation.InclusiveRangeError(1, 65535)`, the detail of `IsValidPortNum`. */
export const PORT_RANGE_DETAIL = 'must be between 1 and 65535, inclusive';

/** `validation.IsValidPortNum`. */
export function portNumDetails(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [PORT_RANGE_DETAIL];
}

/**
 * `validation.IsValidPortName` (an IANA_SVC_NAME): at most 15 characters of `[-a-z0-9]`, at
 * least one letter, no leading, trailing or doubled hyphen. One detail per broken rule.
 */
export function portNameDetails(name: string): string[] {
  const out: string[] = [];
  if (name.length > 15) out.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) {
    out.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!/[a-z]/.test(name)) out.push('must contain at least one letter (a-z)');
  if (name.includes('--')) out.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) out.push('must not begin or end with a hyphen');
  return out;
}

/** `validation.IsValidIP`'s detail (ip.go). */
export const IP_DETAIL = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

/** `validation.IsValidCIDR`'s detail (ip.go). */
export const CIDR_DETAIL = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';
