import { describe, expect, it } from 'vitest';
import { renamedId, rewriteIds, styleDeclarations } from './styleInline';

describe('styleDeclarations', () => {
  it('writes everything at the root, and only what differs from the parent below it', () => {
    const root = { fill: 'rgb(23, 32, 44)', 'font-size': '12px', opacity: '1', display: 'inline' };
    expect(styleDeclarations(root, null)).toBe('fill:rgb(23, 32, 44);font-size:12px');
    const child = { ...root, fill: 'rgb(0, 114, 178)', 'stroke-dasharray': '6px, 4px' };
    expect(styleDeclarations(child, root)).toBe('fill:rgb(0, 114, 178);stroke-dasharray:6px, 4px');
    expect(styleDeclarations(root, root)).toBe('');
  });

  it('keeps opacity and display: none, which do not inherit', () => {
    const parent = { opacity: '0.5', display: 'inline' };
    expect(styleDeclarations({ opacity: '0.5', display: 'inline' }, parent)).toBe('opacity:0.5');
    expect(styleDeclarations({ opacity: '1', display: 'none' }, parent)).toBe('display:none');
  });
});

describe('rewriteIds', () => {
  it('gives useId-based ids fixed names and follows every reference', () => {
    const svg =
      '<svg><defs><marker id="_r_3_-arrow-req"/><pattern id="_r_3_-hatch"/></defs>' +
      '<path marker-end="url(#_r_3_-arrow-req)" style="fill:url(&quot;#_r_3_-hatch&quot;)"/>' +
      '<rect fill="url(#_r_3_-hatch)"/><use href="#_r_3_-hatch"/>' +
      '<text>_r_3_-hatch stays text</text></svg>';
    const out = rewriteIds(svg, ['_r_3_-arrow-req', '_r_3_-hatch'], 'lbdp-f2');
    expect(out).toBe(
      '<svg><defs><marker id="lbdp-f2-arrow-req"/><pattern id="lbdp-f2-hatch"/></defs>' +
        '<path marker-end="url(#lbdp-f2-arrow-req)" style="fill:url(&quot;#lbdp-f2-hatch&quot;)"/>' +
        '<rect fill="url(#lbdp-f2-hatch)"/><use href="#lbdp-f2-hatch"/>' +
        '<text>_r_3_-hatch stays text</text></svg>',
    );
  });

  it('names an id without a dash after the prefix', () => {
    expect(renamedId('cross', 'p')).toBe('p-cross');
    expect(renamedId('«r1»-cross', 'p')).toBe('p-cross');
  });
});
