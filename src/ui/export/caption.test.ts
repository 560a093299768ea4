import { describe, expect, it } from 'vitest';
import { captionLines, wrap } from './caption';
import { textWidth } from '../topology/text';

describe('caption', () => {
  it('wraps to the width, never splitting a word', () => {
    const text = 'kube-proxy DNATs the connection to 10.244.1.5:8080 and conntrack remembers it';
    const lines = wrap(text, 200, 13);
    expect(lines.join(' ')).toBe(text);
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(textWidth(l, 13) <= 200 || !l.includes(' ')).toBe(true);
  });

  it('stacks label, title and body with nothing under 12 px, and cuts a long body with …', () => {
    const body = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const { lines, height } = captionLines({ label: 'Step 1 of 5', title: 'DNAT', body }, 320, 3);
    expect(lines[0]).toMatchObject({ text: 'Step 1 of 5', size: 12, muted: true });
    expect(lines[1]).toMatchObject({ text: 'DNAT', size: 15, bold: true });
    expect(lines).toHaveLength(5);
    expect(lines[4]!.text.endsWith('…')).toBe(true);
    expect(Math.min(...lines.map((l) => l.size))).toBeGreaterThanOrEqual(12);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.y).toBeGreaterThan(lines[i - 1]!.y);
    expect(height).toBeGreaterThan(lines[4]!.y);
  });
});
