/**
 * The design tokens: the data path's marks reach 3:1 against every surface they are drawn on
 * (WCAG 2.2 SC 1.4.11, non-text contrast), and text tokens 4.5:1 (SC 1.4.3), in light and dark;
 * in the high-contrast (projector) theme text has 7:1 (SC 1.4.6, AAA) and marks 4.5:1 on every
 * surface; the system-following blocks equal the explicit ones.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { block, contrast } from './contrast.test-helpers';

const css = readFileSync(join(import.meta.dirname, 'tokens.css'), 'utf8');
const PATH = [
  '--path-request',
  '--path-reply',
  '--path-health',
  '--path-dnat',
  '--path-snat',
  '--path-idle',
  '--path-failed',
];

describe('tokens.css', () => {
  it.each(['light', 'dark'] as const)(
    '%s: every data-path colour has 3:1 on the panel, the cluster and the page',
    (theme) => {
      const v = block(css, `.app[data-theme='${theme}']`);
      for (const name of PATH)
        for (const bg of ['--panel', '--cluster-bg', '--bg', '--kp-bg', '--pod-bg']) {
          expect(v[name], name).toMatch(/^#/);
          expect(contrast(v[name]!, v[bg]!), `${name} on ${bg}`).toBeGreaterThanOrEqual(3);
        }
    },
  );

  it.each(['light', 'dark'] as const)('%s: body and muted text have 4.5:1', (theme) => {
    const v = block(css, `.app[data-theme='${theme}']`);
    for (const fg of ['--fg', '--muted'])
      for (const bg of ['--panel', '--panel-2', '--bg', '--cluster-bg'])
        expect(contrast(v[fg]!, v[bg]!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  describe('high contrast (projectors)', () => {
    const v = block(css, `.app[data-theme='contrast']`);
    /** Every surface text or a mark is drawn on in this theme. */
    const SURFACES = [
      '--bg',
      '--panel',
      '--panel-2',
      '--cluster-bg',
      '--kp-bg',
      '--pod-bg',
      '--accent-soft',
      '--changed-soft',
      '--bad-soft',
    ];
    /** Colours used for text (the stage's labels use --path-failed and --path-request too). */
    const TEXT = [
      '--fg',
      '--muted',
      '--accent',
      '--reply',
      '--changed',
      '--ok',
      '--bad',
      '--hint',
      '--path-request',
      '--path-failed',
    ];

    it('declares every colour token the other themes declare', () => {
      expect(Object.keys(v).sort()).toEqual(
        Object.keys(block(css, `.app[data-theme='dark']`)).sort(),
      );
    });

    it('every text colour has 7:1 on every surface (WCAG AAA, SC 1.4.6)', () => {
      for (const fg of TEXT)
        for (const bg of SURFACES)
          expect(contrast(v[fg]!, v[bg]!), `${fg} on ${bg}`).toBeGreaterThanOrEqual(7);
    });

    it('every data-path mark, border and the focus ring have 4.5:1 on every surface', () => {
      for (const mark of [...PATH, '--border', '--strong-border', '--focus'])
        for (const bg of SURFACES)
          expect(contrast(v[mark]!, v[bg]!), `${mark} on ${bg}`).toBeGreaterThanOrEqual(4.5);
    });

    it('is white on black', () => {
      expect([v['--fg'], v['--panel'], v['--bg']]).toEqual(['#ffffff', '#000000', '#000000']);
      expect(contrast(v['--fg']!, v['--panel']!)).toBeCloseTo(21, 5);
    });
  });

  it('the system-following blocks equal the explicit themes', () => {
    const systemLight = css.slice(css.indexOf(':root {\n  color-scheme: light dark'));
    const systemDark = css.slice(css.indexOf('@media (prefers-color-scheme: dark)'));
    expect(block(systemLight, ':root')).toEqual(block(css, `.app[data-theme='light']`));
    expect(block(systemDark, ':root')).toEqual(block(css, `.app[data-theme='dark']`));
  });
});
