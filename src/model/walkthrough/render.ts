/**
 * Text templates over roles: `{role}` placeholders filled from a cluster's {@link Roles}, with
 * conditional parts taken only when their roles are bound. A placeholder whose role is unbound
 * throws {@link Unbound}, which ./bind.ts turns into a step that does not apply.
 */
import type { RoleName, Roles } from './roles';

/**
 * Text with `{role}` placeholders. An array's parts are joined; a conditional part is used
 * only when every role in `if` is bound, else its `else` (or nothing).
 * E.g. `['Dialling ', { if: ['emptyNode'], then: '{emptyNode}', else: 'a node' }]`.
 */
export type TextTemplate = string | readonly TextPart[];
/** A part of a {@link TextTemplate}: text, or text taken only when roles are bound. */
export type TextPart = string | { if: readonly RoleName[]; then: string; else?: string };

/** Thrown inside rendering when a placeholder's role is unbound. */
export class Unbound extends Error {
  constructor(readonly role: RoleName) {
    super(`role ${role} is unbound`);
  }
}

const PLACEHOLDER = /\{([A-Za-z]+)\}/g;

/** `text` with its `{role}` placeholders filled. @throws {Unbound} for a role not bound. */
export function fill(text: string, values: Roles['values']): string {
  return text.replace(PLACEHOLDER, (_m, role: string) => {
    const v = values[role as RoleName];
    if (v === undefined) throw new Unbound(role as RoleName);
    return v;
  });
}

/** Renders a text template with `values`. @throws {Unbound} for a placeholder not bound. */
export function render(t: TextTemplate, values: Roles['values']): string {
  if (typeof t === 'string') return fill(t, values);
  return t
    .map((p) => {
      if (typeof p === 'string') return fill(p, values);
      const taken = p.if.every((r) => values[r] !== undefined);
      return fill(taken ? p.then : (p.else ?? ''), values);
    })
    .join('');
}

/** Every string in `x` (a scene) with its placeholders filled; other values as they are. */
export function fillDeep<T>(x: T, values: Roles['values']): T {
  if (typeof x === 'string') return fill(x, values) as T;
  if (Array.isArray(x)) return x.map((v: unknown) => fillDeep(v, values)) as T;
  if (x !== null && typeof x === 'object')
    return Object.fromEntries(
      Object.entries(x as Record<string, unknown>).map(([k, v]) => [k, fillDeep(v, values)]),
    ) as T;
  return x;
}
