import { describe, expect, it } from 'vitest';
import { STYLES_PLACEHOLDER, forShadowRoot, withStyles } from './embedElement';

describe('the <lb-datapath> build: styles for a shadow root', () => {
  it('turns the document-level :root rules into the element’s own :host', () => {
    const css =
      ':root{--bg:#fff}@media (prefers-color-scheme:dark){:root{--bg:#000}}.app:root-ish{}';
    expect(forShadowRoot(css)).toBe(
      ':host{--bg:#fff}@media (prefers-color-scheme:dark){:host{--bg:#000}}.app:root-ish{}',
    );
  });

  it('puts the stylesheet in place of the quoted placeholder, as a string literal', () => {
    const code = `const a="${STYLES_PLACEHOLDER}";x.textContent=a;`;
    const css = ':host{content:"\\"q\\""}\n.a{}';
    const out = withStyles(code, css);
    expect(out).toBe(`const a=${JSON.stringify(css)};x.textContent=a;`);
    // The literal evaluates back to the stylesheet, quotes and newline included.
    expect(new Function(`${out.replace('x.textContent=a;', '')} return a;`)()).toBe(css);
  });

  it('refuses code without the placeholder, or with it twice (the styles would be lost)', () => {
    expect(() => withStyles('const a=1', '')).toThrow(
      'embed element: expected the styles placeholder once, found it 0 times',
    );
    const twice = `"${STYLES_PLACEHOLDER}";'${STYLES_PLACEHOLDER}'`;
    expect(() => withStyles(twice, '')).toThrow('found it 2 times');
  });
});
