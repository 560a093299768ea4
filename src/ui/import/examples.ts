/**
 * The example clusters shipped in `public/examples/`: their list (`index.json`) and their text,
 * fetched relative to the app's base URL.
 */
export interface Example {
  file: string;
  title: string;
  description: string;
}

const base = (): string => import.meta.env.BASE_URL;

/** Keeps the well-formed entries of an `index.json`; a file name must be a plain `*.yaml`/`*.json`. */
export function parseIndex(value: unknown): Example[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((e: unknown) => {
    if (e === null || typeof e !== 'object') return [];
    const { file, title, description } = e as Record<string, unknown>;
    if (typeof file !== 'string' || !/^[\w.-]+\.(ya?ml|json)$/.test(file)) return [];
    if (typeof title !== 'string') return [];
    return [{ file, title, description: typeof description === 'string' ? description : '' }];
  });
}

/** The list of examples. @throws {Error} when it cannot be fetched. */
export async function fetchExamples(signal?: AbortSignal): Promise<Example[]> {
  const res = await fetch(`${base()}examples/index.json`, signal ? { signal } : {});
  if (!res.ok) throw new Error(`the list of examples could not be loaded (HTTP ${res.status})`);
  return parseIndex(await res.json());
}

/** One example's text. @throws {Error} when it cannot be fetched. */
export async function fetchExample(file: string): Promise<string> {
  const res = await fetch(`${base()}examples/${encodeURIComponent(file)}`);
  if (!res.ok) throw new Error(`${file} could not be loaded (HTTP ${res.status})`);
  return res.text();
}
