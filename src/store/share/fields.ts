/**
 * The checks a share link's (and the saved view's) fields go through: each returns the value or
 * throws {@link Invalid} with a reason naming the field's path (`scene.seed must be a whole
 * number`), which `validateSharedState` (./link.ts) turns into the reason a person reads.
 */
import { MAX_NAME_CHARS } from '../../model/time/limits';

/** Longest name (a Kubernetes name is at most 253 characters) or `ip:port` accepted. */
export const MAX_NAME = MAX_NAME_CHARS;

/** Keys that could reach an object's prototype if some code ever copied them naively. */
export const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A field that is not as a view of this app writes it; the message names its path. */
export class Invalid extends Error {}

/** @throws {Invalid} always, with `message`. */
export function fail(message: string): never {
  throw new Invalid(message);
}

/** Whether `value` is a plain object (not an array, not a class instance). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `o[key]` when `o` has it as its own property, else undefined (never from the prototype). */
export function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** Whether `o` has `key` as its own property. */
export function has(o: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Rejects keys outside `allowed` (a link edited by hand, or from another app). @throws {Invalid} */
export function onlyKeys(
  o: Record<string, unknown>,
  allowed: readonly string[],
  path: string,
): void {
  for (const key of Object.keys(o))
    if (!allowed.includes(key))
      fail(
        FORBIDDEN_KEYS.has(key)
          ? `${path} has a forbidden key "${key}"`
          : `${path} has an unknown field "${truncate(key)}"`,
      );
}

/** `s` cut to 40 characters, for messages. */
export function truncate(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** `value` when it is one of `options`. @throws {Invalid} otherwise. */
export function oneOf<T extends string>(value: unknown, options: readonly T[], path: string): T {
  if (typeof value === 'string' && (options as readonly string[]).includes(value))
    return value as T;
  return fail(`${path} must be one of ${options.join(', ')}`);
}

/** A string of 1 to `max` characters (default {@link MAX_NAME}). @throws {Invalid} otherwise. */
export function name(value: unknown, path: string, max = MAX_NAME): string {
  if (typeof value !== 'string') return fail(`${path} must be a string`);
  if (value.length === 0 || value.length > max)
    return fail(`${path} must be 1 to ${max} characters long`);
  return value;
}

/** A whole number in [min, max]. @throws {Invalid} otherwise. */
export function integer(value: unknown, min: number, max: number, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value))
    return fail(`${path} must be a whole number`);
  if (value < min || value > max) return fail(`${path} must be between ${min} and ${max}`);
  return value;
}
