import { describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { createElement } from 'react';
import { analyse } from './analyse';
import { createAnalyseClient, isCancelled } from './analyseClient';
import { MAX_SHOWN_PROBLEMS, MAX_TEXT_BYTES, shown, utf8Length } from './limits';
import { ProblemList } from './ProblemList';

/** 150 Services whose nodePort is out of range: one error each. */
const manyErrors = Array.from(
  { length: 150 },
  (_, i) =>
    `kind: Service\nmetadata: {name: s${i}}\nspec:\n  type: NodePort\n  ports: [{port: 80, nodePort: 29999}]\n`,
).join('---\n');

describe('size limits', () => {
  it('10 MB is 10 × 1024 × 1024 bytes of UTF-8', () => {
    expect(MAX_TEXT_BYTES).toBe(10_485_760);
    for (const s of ['', 'kind: Service', 'ü', '€ 10', '🚀 x', 'a\ud800b', '\udc00']) {
      expect(utf8Length(s), s).toBe(new TextEncoder().encode(s).length);
    }
    // A long text (measured another way) counts the same: 1 + 2 + 3 + 4 + 3 bytes a round.
    expect(utf8Length('aü€🚀\ud800'.repeat(20_000))).toBe(13 * 20_000);
  });

  it('the worker sends the first 100 problems and counts the rest; objects only when asked', () => {
    const a = analyse(manyErrors);
    expect(a.errors).toBe(150);
    const s = shown(a, false);
    expect(s.problems).toEqual(a.problems.slice(0, MAX_SHOWN_PROBLEMS));
    expect(s.more).toBe(50);
    expect(s.errors).toBe(150);
    expect(s.objects).toEqual([]);
    expect(shown(a, true).objects).toEqual(a.objects);
  });

  it('the problem list shows 100 problems and "and 50 more"', () => {
    const html = renderToStaticMarkup(
      createElement(ProblemList, {
        analysis: shown(analyse(manyErrors), false),
        summaryId: 's',
        onGo: () => {},
      }),
    );
    expect(html.match(/<li /g)?.length).toBe(100);
    expect(html).toContain('…and 50 more problems.');
    expect(html).toContain('150 errors.');
  });
});

describe('the analysis client without Worker (in this thread)', () => {
  it('answers like analyse, and a newer request cancels an older one', async () => {
    expect(typeof Worker).toBe('undefined');
    const client = createAnalyseClient();
    const older = client.analyse('kind: Node\nmetadata: {name: n1}\n');
    const newer = client.analyse(manyErrors, { objects: true });
    await expect(older).rejects.toSatisfy(isCancelled);
    const a = await newer;
    expect(a.errors).toBe(150);
    expect(a.problems.length).toBe(100);
    expect(a.given).toBe(150);
    expect(a.objects).toEqual(analyse(manyErrors).objects);
  });
});
