/**
 * An in-memory `Storage` for tests that behaves as a browser's does at its limits: a quota
 * in characters (keys and values, as Chromium counts them) past which `setItem` throws a
 * DOMException named `QuotaExceededError`, and a `blocked` mode in which every access throws
 * a `SecurityError` (storage disabled by the browser's settings).
 */
export interface FakeStorage extends Storage {
  /** The stored keys and values (read it to see what was written). */
  readonly data: Map<string, string>;
  /** Every access throws a SecurityError while true. */
  blocked: boolean;
  /** The most characters (keys + values) it holds; Infinity by default. */
  quota: number;
}

/** A fake Storage holding `initial`, with at most `quota` characters. */
export function fakeStorage(initial: Record<string, string> = {}, quota = Infinity): FakeStorage {
  const data = new Map(Object.entries(initial));
  const used = () => [...data].reduce((n, [k, v]) => n + k.length + v.length, 0);
  const fake = {
    data,
    blocked: false,
    quota,
    check() {
      if (fake.blocked) throw new DOMException('The operation is insecure.', 'SecurityError');
    },
    get length() {
      fake.check();
      return data.size;
    },
    key(i: number) {
      fake.check();
      return [...data.keys()][i] ?? null;
    },
    getItem(k: string) {
      fake.check();
      return data.get(k) ?? null;
    },
    setItem(k: string, v: string) {
      fake.check();
      const value = String(v);
      const after = used() - (data.has(k) ? k.length + (data.get(k) ?? '').length : 0);
      if (after + k.length + value.length > fake.quota)
        throw new DOMException(
          `Failed to execute 'setItem' on 'Storage': Setting the value of '${k}' exceeded the quota.`,
          'QuotaExceededError',
        );
      data.set(k, value);
    },
    removeItem(k: string) {
      fake.check();
      data.delete(k);
    },
    clear() {
      fake.check();
      data.clear();
    },
  };
  return fake as unknown as FakeStorage;
}
