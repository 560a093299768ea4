import { describe, expect, it } from 'vitest';
import { MIN_SCALE, naturalWidth, withUniqueIds } from './MermaidDiagram';
import { textOf, withoutPlayMark } from './SceneLink';
import { insideQuotes } from './glossaryPlugin';

describe('withoutPlayMark', () => {
  it('drops one leading ▶ the author wrote (the link draws its own)', () => {
    expect(withoutPlayMark('▶ step 3')).toBe('step 3');
    expect(withoutPlayMark('▶︎step 3')).toBe('step 3');
    expect(textOf(withoutPlayMark(['▶ Step 6, ', 'the DNAT']))).toBe('Step 6, the DNAT');
    expect(withoutPlayMark('See it ▶ now')).toBe('See it ▶ now');
    expect(withoutPlayMark('Play from step 1')).toBe('Play from step 1');
  });
});

describe('mermaid sizes', () => {
  const svg =
    '<svg id="mermaid-diagram-3" width="100%" style="max-width: 1957.2px;" viewBox="-8 -8 1957.2 640" role="graphics-document"><style>#mermaid-diagram-3 .node{}</style><marker id="mermaid-diagram-3_flowchart-v2-pointEnd"/><path marker-end="url(#mermaid-diagram-3_flowchart-v2-pointEnd)"/><title id="chart-title-mermaid-diagram-3">T</title></svg>';
  it('reads the natural width from the viewBox', () => {
    expect(naturalWidth(svg)).toBe(1957.2);
    expect(naturalWidth('<svg width="10"></svg>')).toBeUndefined();
    // Labels are 16 px at natural size: never below 0.8 of it keeps them at about 13 px.
    expect(16 * MIN_SCALE).toBeCloseTo(12.8);
  });
  it('makes every id of a second copy its own (root id, markers, styles, title)', () => {
    const copy = withUniqueIds(svg, '-enlarged');
    expect(copy).toContain('id="mermaid-diagram-3-enlarged"');
    expect(copy).toContain('#mermaid-diagram-3-enlarged .node');
    expect(copy).toContain('url(#mermaid-diagram-3-enlarged_flowchart-v2-pointEnd)');
    expect(copy).toContain('id="chart-title-mermaid-diagram-3-enlarged"');
    expect(copy).not.toMatch(/mermaid-diagram-3(?!-enlarged)/);
  });
});

describe('insideQuotes', () => {
  it('is true inside straight or curly double quotes, false outside', () => {
    const text = 'Warning "Error syncing load balancer: x" then the load balancer “is ready” now';
    expect(insideQuotes(text, text.indexOf('load balancer'))).toBe(true);
    expect(insideQuotes(text, text.lastIndexOf('load balancer'))).toBe(false);
    expect(insideQuotes(text, text.indexOf('is ready'))).toBe(true);
    expect(insideQuotes(text, text.indexOf('now'))).toBe(false);
  });
});
