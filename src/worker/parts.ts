/**
 * Large arrays travel in parts: a structured clone is decoded in one piece, in the task that
 * reads the message, so a reply holding a 10,000-Pod cluster blocked the main thread for
 * 100–450 ms. Cut into messages of {@link PART_ITEMS} items, each part is its own task of a few
 * milliseconds. {@link splitArrays} takes the large arrays out of a value (leaving empty ones,
 * the value itself untouched) and {@link joinArrays} puts them back, in order.
 *
 * Only plain data is walked (objects and arrays, as postMessage clones them), to
 * {@link PART_DEPTH} levels: a scene reply's `cluster.pods`, `cluster.endpoints[key]`, a trace
 * step's endpoint decision and the like (a path's keys include array indices).
 */

/** Items per part (a part of Pods decodes in a few ms). */
export const PART_ITEMS = 1_000;
/**
 * How deep below the top value arrays are looked for: reply → cluster → endpoints → key, and
 * reply → trace → steps → step → decision → its options.
 */
export const PART_DEPTH = 5;

/** A slice of the array at `path` (keys from the top value; indices in arrays), to be appended to it. */
export interface ArrayPart {
  path: string[];
  items: unknown[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * `value` with every array longer than `size` items (in plain objects down to `depth` levels)
 * replaced by an empty array, and the parts that rebuild them: `joinArrays(value', parts)`
 * equals `value`. Objects on the way to a taken array are copied; nothing in `value` changes.
 */
export function splitArrays<T>(
  value: T,
  size = PART_ITEMS,
  depth = PART_DEPTH,
): { value: T; parts: ArrayPart[] } {
  const parts: ArrayPart[] = [];
  const walk = (v: unknown, path: string[], left: number): unknown => {
    if (Array.isArray(v)) {
      if (path.length > 0 && v.length > size) {
        for (let i = 0; i < v.length; i += size) parts.push({ path, items: v.slice(i, i + size) });
        return [];
      }
      // A short array's items may hold long ones (a trace step's 10,000 endpoint options).
      if (left < 0) return v;
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const before: unknown = v[i];
        const after = walk(before, [...path, String(i)], left - 1);
        if (after !== before) {
          copy ??= v.slice();
          copy[i] = after;
        }
      }
      return copy ?? v;
    }
    if (left < 0 || !isPlainObject(v)) return v;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(v)) {
      const before = v[key];
      const after = walk(before, [...path, key], left - 1);
      if (after !== before) {
        copy ??= { ...v };
        copy[key] = after;
      }
    }
    return copy ?? v;
  };
  return { value: walk(value, [], depth) as T, parts };
}

/**
 * Appends each part's items to the array at its path in `value` (which `splitArrays` left
 * empty), in the order given; mutates and returns `value` (a fresh copy from postMessage).
 * @throws {Error} when a path does not lead to an array (parts from another value).
 */
export function joinArrays<T>(value: T, parts: readonly ArrayPart[]): T {
  for (const part of parts) {
    let at: unknown = value;
    for (const key of part.path) at = (at as Record<string, unknown> | undefined)?.[key];
    if (!Array.isArray(at)) throw new Error(`no array at ${part.path.join('.')} to join a part to`);
    for (const item of part.items) at.push(item);
  }
  return value;
}
