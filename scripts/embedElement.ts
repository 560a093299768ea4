/**
 * A Vite plugin: after the app's build, builds the `<lb-datapath>` custom element
 * (src/embed/element.tsx) in library mode into `<outDir>/embed/lb-datapath.js` — ONE ES module
 * a docs author can copy: no chunks (code splitting off), no worker file (the model answers in
 * the page's thread: `src/worker/earlyWorker.ts` is replaced by `src/embed/noWorker.ts`), and
 * the stylesheet inside it ({@link inlineStyles}), for the element's shadow root.
 */
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { build } from 'vite';
import type { Plugin } from 'vite';

/** Where the element's code expects its stylesheet (src/embed/element.tsx). */
export const STYLES_PLACEHOLDER = '__LB_DATAPATH_CSS__';

/** The built file, inside the app's outDir. */
export const ELEMENT_FILE = 'embed/lb-datapath.js';

/**
 * The app's stylesheet for a shadow root: its `:root` rules are the custom element's own
 * (`:host`), since a shadow root has no document element to match.
 */
export function forShadowRoot(css: string): string {
  return css.replace(/:root(?![\w-])/g, ':host');
}

/**
 * `code` with the quoted placeholder replaced by `css` as a JS string literal.
 * @throws {Error} when the placeholder is not in `code` exactly once (the styles would be lost).
 */
export function withStyles(code: string, css: string): string {
  const re = new RegExp(`(["'\`])${STYLES_PLACEHOLDER}\\1`, 'g');
  const found = code.match(re)?.length ?? 0;
  if (found !== 1)
    throw new Error(`embed element: expected the styles placeholder once, found it ${found} times`);
  return code.replace(re, () => JSON.stringify(css));
}

/** A plugin for the element's build: moves the CSS assets into the JS, for the shadow root. */
export function inlineStyles(): Plugin {
  return {
    name: 'lb-embed-inline-styles',
    apply: 'build',
    // After Vite's own CSS plugin has emitted the stylesheet.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const css = Object.values(bundle)
        .filter((o) => o.type === 'asset' && o.fileName.endsWith('.css'))
        .map((o) => (o.type === 'asset' ? String(o.source) : ''))
        .join('\n');
      if (!css) throw new Error('embed element: the build emitted no stylesheet to inline');
      for (const [name, o] of Object.entries(bundle))
        if (o.type === 'asset' && o.fileName.endsWith('.css')) delete bundle[name];
      for (const o of Object.values(bundle))
        if (o.type === 'chunk' && o.isEntry) o.code = withStyles(o.code, forShadowRoot(css));
    },
  };
}

/** Builds the element into `outDir/embed/` (the app's outDir, already written). */
export async function buildElement(root: string, outDir: string): Promise<void> {
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    plugins: [react(), inlineStyles()],
    resolve: {
      alias: [{ find: /^\.\/earlyWorker$/, replacement: resolve(root, 'src/embed/noWorker.ts') }],
    },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      target: 'es2022',
      outDir: resolve(outDir, 'embed'),
      emptyOutDir: false,
      copyPublicDir: false,
      cssCodeSplit: false,
      lib: {
        entry: resolve(root, 'src/embed/element.tsx'),
        formats: ['es'],
        fileName: () => 'lb-datapath.js',
      },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
}

/** The plugin for the app's build. */
export function embedElement(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  return {
    name: 'lb-embed-element',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await buildElement(root, outDir);
    },
  };
}
