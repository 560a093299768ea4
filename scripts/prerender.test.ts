import { describe, expect, it } from 'vitest';
import { PRERENDERED_ATTR, keepPrerenderScript, withPrerendered } from './prerender';

const RULE = { storageKeys: ['lbpath.v1.state', 'lbpath.theme'], minStageWidth: 780 };

/** Runs the inline script against a fake page; whether it kept the prerendered HTML. */
function keeps(opts: {
  hash?: string;
  search?: string;
  saved?: string | null;
  theme?: string | null;
  stageWidth?: number | null;
  storageThrows?: boolean;
}): boolean {
  let emptied = false;
  let unmarked = false;
  const root = {
    querySelector: (sel: string) =>
      sel === '.stage-canvas' && opts.stageWidth !== null
        ? { getBoundingClientRect: () => ({ width: opts.stageWidth ?? 900 }) }
        : null,
    replaceChildren: () => (emptied = true),
    removeAttribute: (name: string) => (unmarked = name === PRERENDERED_ATTR),
  };
  const document = { getElementById: (id: string) => (id === 'root' ? root : null) };
  const localStorage = {
    getItem: (key: string) => {
      if (opts.storageThrows) throw new Error('SecurityError');
      if (key === 'lbpath.v1.state') return opts.saved ?? null;
      return key === 'lbpath.theme' ? (opts.theme ?? null) : null;
    },
  };
  const location = { hash: opts.hash ?? '', search: opts.search ?? '' };
  new Function('document', 'location', 'localStorage', keepPrerenderScript(RULE))(
    document,
    location,
    localStorage,
  );
  expect(emptied).toBe(unmarked); // both or neither
  return !emptied;
}

describe('prerender: the keep-or-empty script', () => {
  it('keeps the default view for a first visit on a wide enough stage', () => {
    expect(keeps({})).toBe(true);
    expect(keeps({ hash: '#' })).toBe(true);
    expect(keeps({ stageWidth: 780 })).toBe(true);
  });

  it('empties it when the visit opens something else: a link, a tutorial route, a query, a saved view, a kept theme', () => {
    expect(keeps({ hash: '#s=abc' })).toBe(false);
    expect(keeps({ hash: '#/learn/01-nodeport' })).toBe(false);
    expect(keeps({ saved: '{"v":1}' })).toBe(false);
    expect(keeps({ saved: '' })).toBe(false);
    expect(keeps({ search: '?embed=1' })).toBe(false);
    expect(keeps({ theme: 'contrast' })).toBe(false);
  });

  it('empties it on a stage narrower than its layout (a phone), or with no stage, or unreadable storage', () => {
    expect(keeps({ stageWidth: 779 })).toBe(false);
    expect(keeps({ stageWidth: null })).toBe(false);
    expect(keeps({ storageThrows: true })).toBe(false);
  });
});

describe('prerender: the HTML', () => {
  const html = '<body>\n    <div id="root"></div>\n    <script type="module" src="/a.js"></script>';

  it('puts the page inside #root, marked, with the script right after it', () => {
    const out = withPrerendered(html, '<div class="app">$& $1</div>', RULE);
    // `$&` in the page is kept as written (a replacement pattern would expand it).
    expect(out).toContain(`<div id="root" ${PRERENDERED_ATTR}><div class="app">$& $1</div></div>`);
    const script = out.indexOf('<script>(function');
    expect(script).toBeGreaterThan(out.indexOf('</div></div>'));
    expect(script).toBeLessThan(out.indexOf('<script type="module"'));
  });

  it('refuses an index.html without an empty #root', () => {
    expect(() => withPrerendered('<body><div id="app"></div>', 'x', RULE)).toThrow(
      'prerender: index.html has no empty <div id="root"></div>',
    );
  });
});
