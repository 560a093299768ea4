/**
 * The example clusters of `public/examples/` bundled into the page, for the offline single
 * file (`vite.offline.config.ts`): opened from `file://` the page cannot fetch them. Only
 * `examples.ts` loads this module, and only in that build (the normal build fetches them, so
 * its bundle does not carry them).
 */

/** Each file's text, by file name (`index.json`, `canonical.yaml`, …). */
const files: Record<string, string> = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>('../../../public/examples/*.{yaml,yml,json}', {
      query: '?raw',
      import: 'default',
      eager: true,
    }),
  ).map(([path, text]) => [path.slice(path.lastIndexOf('/') + 1), text]),
);

/**
 * The text of the bundled example `file` (a plain file name, as `index.json` lists it).
 * @throws {Error} when no such file was bundled, in the words a failed fetch would give.
 */
export function inlinedExample(file: string): string {
  const text = Object.hasOwn(files, file) ? files[file] : undefined;
  if (text === undefined) throw new Error(`${file} could not be loaded (not in this file)`);
  return text;
}
