import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, compileHints, initialChunks } from './compileHints';

const chunk = (isEntry: boolean, imports: string[], code = 'x();') => ({
  type: 'chunk' as const,
  isEntry,
  imports,
  code,
});

describe('compileHints', () => {
  const bundle = () => ({
    'index.js': chunk(true, ['react.js', 'store.js']),
    'react.js': chunk(false, []),
    'store.js': chunk(false, ['model.js']),
    'model.js': chunk(false, []),
    // Reached only by dynamic import(): a lazy chunk.
    'rules.js': chunk(false, ['react.js']),
    'index.css': { type: 'asset' as const },
  });

  it('finds the entry and its static imports, transitively, and no lazy chunk', () => {
    expect([...initialChunks(bundle())].sort()).toEqual([
      'index.js',
      'model.js',
      'react.js',
      'store.js',
    ]);
  });

  it('puts the hint on the first line of the initial chunks only, once', () => {
    const b = bundle();
    const hook = compileHints().generateBundle as unknown as {
      handler: (o: unknown, b: unknown) => void;
    };
    hook.handler({}, b);
    hook.handler({}, b);
    expect(b['index.js'].code).toBe(`${COMPILE_HINT}\nx();`);
    expect(b['model.js'].code.split('\n')[0]).toBe(COMPILE_HINT);
    expect(b['rules.js'].code).toBe('x();');
  });
});
