/**
 * A bounded memo for pure string functions (chain-name hashes, formatted probabilities):
 * the same input always gives the same output, so a result computed once is reused by every
 * node's rules and every later run. When the memo holds `limit` entries it starts afresh, so
 * memory stays bounded however many clusters a long session sees.
 */

/**
 * Wraps `fn` (which must be pure) in a memo of at most `limit` entries.
 * @param limit entries kept before the memo is cleared; default 200,000 (≈ 20 MB of short strings)
 */
export function memoize<K, V>(fn: (key: K) => V, limit = 200_000): (key: K) => V {
  let cache = new Map<K, V>();
  return (key: K): V => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = fn(key);
    if (cache.size >= limit) cache = new Map();
    cache.set(key, value);
    return value;
  };
}
