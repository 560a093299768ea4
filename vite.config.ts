import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { compileHints } from './scripts/compileHints';
import { earlyWorkerTag } from './scripts/earlyWorkerTag';
import { prerender } from './scripts/prerender';
import { embedElement } from './scripts/embedElement';
import { strictCsp, styleModAdoptedSheets } from './scripts/csp';

// https://vite.dev/config/ — the vitest section lives here too (https://vitest.dev/config/).
export default defineConfig({
  plugins: [
    react(),
    compileHints(),
    earlyWorkerTag(),
    prerender(),
    embedElement(),
    strictCsp(),
    styleModAdoptedSheets(),
  ],
  build: {
    target: 'es2022',
    // Two pages: the app, and the embed view (src/embed/, its own smaller bundle).
    rolldownOptions: {
      input: { main: 'index.html', embed: 'embed.html' },
    },
    // No manual chunking: heavy, rarely-used libraries (mermaid) must only ever be reached
    // through a dynamic `import()` so that they land in their own lazily-loaded chunks.
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['src/testSetup.ts'],
    benchmark: {
      include: ['src/**/*.bench.ts'],
    },
  },
});
