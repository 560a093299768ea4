import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';
import { inlineFavicon, inlineWorkers, OFFLINE_MODE } from './scripts/offline';
import { prerender } from './scripts/prerender';

const root = fileURLToPath(new URL('.', import.meta.url));

// The offline single file (`npm run build:offline`): dist-offline/index.html with everything
// inlined, for opening from file:// with no network (README "Offline, for workshops").
// A config of its own rather than a merge of vite.config.ts, so that nothing added there for the
// normal build (chunking, library entries) can split this one into files. The same plugins but
// two: not earlyWorkerTag, whose inline script starts the model worker from its file by URL (here
// the worker is inline, scripts/offline.ts, and earlyWorker.ts starts it as the script runs); not
// compileHints, which asks V8 to compile the initial chunk eagerly: here the one chunk holds
// everything, mermaid and the editor too.
export default defineConfig({
  // import.meta.env.MODE: src/ui/import/examples.ts reads the bundled examples in this mode.
  mode: OFFLINE_MODE,
  plugins: [
    react(),
    prerender(),
    inlineWorkers(),
    inlineFavicon(root),
    // Inlines the script and the stylesheet into index.html; with one bundle (codeSplitting
    // off, which it sets) the lazy chunks (tutorial chapters, mermaid, editors) are in it too.
    viteSingleFile(),
  ],
  // public/ holds the favicon and the example clusters, both inlined instead (scripts/offline.ts).
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: 'dist-offline',
    emptyOutDir: true,
  },
});
