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

/**
 * Whether the examples are bundled in the page instead of fetched: in the offline single file
 * (`vite.offline.config.ts`), opened from `file://`, where fetch fails. A build-time constant:
 * the normal build drops the other branch and never loads `./examplesInline`.
 */
const inlined = import.meta.env.MODE === 'offline';

/** A bundled example's text (the offline build only). */
const inlinedText = async (file: string): Promise<string> =>
  (await import('./examplesInline')).inlinedExample(file);

/** The list of examples. @throws {Error} when it cannot be fetched. */
export async function fetchExamples(signal?: AbortSignal): Promise<Example[]> {
  if (inlined) return parseIndex(JSON.parse(await inlinedText('index.json')));
  const res = await fetch(`${base()}examples/index.json`, signal ? { signal } : {});
  if (!res.ok) throw new Error(`the list of examples could not be loaded (HTTP ${res.status})`);
  return parseIndex(await res.json());
}

/** One example's text. @throws {Error} when it cannot be fetched. */
export async function fetchExample(file: string): Promise<string> {
  if (inlined) return inlinedText(file);
  const res = await fetch(`${base()}examples/${encodeURIComponent(file)}`);
  if (!res.ok) throw new Error(`${file} could not be loaded (HTTP ${res.status})`);
  return res.text();
}
