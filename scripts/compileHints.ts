/**
 * A Vite plugin: marks the chunks the page loads up front (the entry and every chunk it
 * imports statically) with V8's explicit compile hint, `//# allFunctionsCalledOnLoad`
 * (Chrome 136+, https://v8.dev/blog/explicit-compile-hints). Nearly every function in those
 * chunks runs while the first frame is drawn (React, the store, the shell's components); with
 * the hint V8 compiles them eagerly on a background thread while the file streams in, instead
 * of one by one on the main thread the first time each is called (at 4× CPU throttle that
 * lazy compiling was a large share of the first render). Lazy chunks are left alone. Other
 * engines read the line as a comment.
 *
 * The line goes in after minification (`generateBundle`), so the minifier cannot drop it; it
 * must be the file's first line. No source maps are built, so none shift.
 */
import type { Plugin } from 'vite';

/** V8's magic comment: eagerly compile every function in this file. */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** One output chunk, as far as this plugin reads it. */
interface ChunkLike {
  type: 'chunk';
  isEntry: boolean;
  imports: string[];
  code: string;
}

/**
 * The file names of the chunks loaded before any interaction: the entries and, transitively,
 * their static imports (dynamic imports excluded).
 */
export function initialChunks(bundle: Record<string, { type: string }>): Set<string> {
  const chunks = new Map<string, ChunkLike>();
  for (const [name, out] of Object.entries(bundle))
    if (out.type === 'chunk') chunks.set(name, out as ChunkLike);
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const c = chunks.get(name);
    if (!c) return;
    seen.add(name);
    c.imports.forEach(visit);
  };
  for (const [name, c] of chunks) if (c.isEntry) visit(name);
  return seen;
}

/** The plugin (production builds only). */
export function compileHints(): Plugin {
  return {
    name: 'lb-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own generateBundle work (it prepends the entry's preload map).
      order: 'post',
      handler(_options, bundle) {
        for (const name of initialChunks(bundle)) {
          const c = bundle[name] as unknown as ChunkLike;
          if (!c.code.startsWith(COMPILE_HINT)) c.code = `${COMPILE_HINT}\n${c.code}`;
        }
      },
    },
  };
}
