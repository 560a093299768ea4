// @ts-check
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const PURE_MESSAGE = 'the model is pure: pass a seeded RNG / virtual time in';

/** UI/state libraries that neither the pure model nor the CLI may depend on. */
const uiLibraries = ['react', 'react-dom', 'zustand', 'framer-motion'];

export default defineConfig([
  globalIgnores([
    'dist/**',
    'dist-*/**',
    'test-results-*/**',
    'node_modules/**',
    'test-results/**',
    'playwright-report/**',
    'blob-report/**',
    'coverage/**',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },

  // Browser code.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/cli/**'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },

  // Node code: tooling, configs, e2e tests, the CLI.
  {
    files: ['*.{js,mjs,cjs,ts}', 'scripts/**', 'e2e/**', 'src/cli/**'],
    languageOptions: { globals: globals.node },
  },

  // The model is pure: no UI, no state store, no ambient time or randomness, no DOM.
  {
    files: ['src/model/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...uiLibraries, 'd3-selection'].map((name) => ({
            name,
            message: `${PURE_MESSAGE} (no ${name} in src/model)`,
          })),
          patterns: [
            {
              group: [...uiLibraries, 'd3-selection'].map((name) => `${name}/*`),
              message: `${PURE_MESSAGE} (no UI libraries in src/model)`,
            },
            {
              group: ['../store/*', '../ui/*', '**/store/**', '**/ui/**'],
              message: `${PURE_MESSAGE} (src/model must not import src/store or src/ui)`,
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: PURE_MESSAGE },
        { name: 'document', message: PURE_MESSAGE },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: PURE_MESSAGE },
        { object: 'Date', property: 'now', message: PURE_MESSAGE },
      ],
    },
  },

  // The CLI runs in Node: no React, no zustand, no UI/state code.
  {
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: uiLibraries.map((name) => ({
            name,
            message: `the CLI runs in Node: no ${name} in src/cli`,
          })),
          patterns: [
            {
              group: uiLibraries.map((name) => `${name}/*`),
              message: 'the CLI runs in Node: no UI libraries in src/cli',
            },
            {
              group: ['../store/*', '../ui/*', '**/store/**', '**/ui/**'],
              message: 'the CLI runs in Node: it must not import src/store or src/ui',
            },
          ],
        },
      ],
    },
  },
  // The tutorial's core runs in Node (tests, scripts/tutorial-check.ts) and the browser: no
  // React, no DOM, nothing from src/ui (it may read the store's plain modules).
  {
    files: ['src/tutorial/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: uiLibraries.map((name) => ({
            name,
            message: `src/tutorial is plain TypeScript: no ${name}`,
          })),
          patterns: [
            {
              group: ['../ui/*', '**/ui/**'],
              message: 'src/tutorial must not import src/ui (the view imports the tutorial)',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'window', message: 'src/tutorial runs in Node too' },
        { name: 'document', message: 'src/tutorial runs in Node too' },
      ],
    },
  },
  // The time model's input format and bounds are read by the share link in the initial bundle:
  // they import nothing but each other (limits.ts ← registry.ts ← eventArgs.ts), so reading them
  // never loads the time model.
  {
    files: [
      'src/model/time/limits.ts',
      'src/model/time/registry.ts',
      'src/model/time/eventArgs.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\./(limits|registry)$)',
              message:
                'limits.ts, registry.ts and eventArgs.ts are dependency-free (the share link reads them without the time model): they may import ./limits and ./registry only',
            },
          ],
        },
      ],
    },
  },
]);
