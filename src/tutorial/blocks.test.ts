import { describe, expect, it } from 'vitest';
import { extractBlocks, missingAccessibility } from './blocks';

const BODY = [
  '', // line 5 of the file when bodyLine is 5
  'See [it with Local](scene:policy=Local&step=last) and [the docs](https://kubernetes.io/).',
  '',
  '```scene',
  'scene: policy=Local&lbTarget=node-1&step=last',
  'caption: Local keeps the client address.',
  '```',
  '',
  '```bash',
  '# [not a link](scene:step=1)',
  '```',
  '',
  '- In a list: [step 3](scene:story=3)',
  '',
  '```question',
  'id: q1',
  'scene: policy=Local&lbTarget=node-1',
  'ask: pod',
  'prompt: Which Pod?',
  '```',
  '',
  '```mermaid',
  'flowchart LR',
  '  accTitle: Path',
  '  accDescr: A client reaches a Pod.',
  '  C --> P',
  '```',
  '',
  '[ref]: scene:step=last',
].join('\n');

describe('extractBlocks', () => {
  const b = extractBlocks(BODY, 5);
  it('finds scene links (not inside code), with file lines', () => {
    expect(b.sceneLinks).toEqual([
      {
        url: 'scene:policy=Local&step=last',
        query: 'policy=Local&step=last',
        text: 'it with Local',
        line: 6,
      },
      { url: 'scene:story=3', query: 'story=3', text: 'step 3', line: 17 },
      { url: 'scene:step=last', query: 'step=last', text: '', line: 33 },
    ]);
  });
  it('finds scene and question blocks with their YAML and field lines', () => {
    expect(b.sceneBlocks).toHaveLength(1);
    expect(b.sceneBlocks[0]?.line).toBe(8);
    expect(b.sceneBlocks[0]?.data).toEqual({
      scene: 'policy=Local&lbTarget=node-1&step=last',
      caption: 'Local keeps the client address.',
    });
    expect(b.sceneBlocks[0]?.fieldLine('caption')).toBe(10);
    expect(b.questions).toHaveLength(1);
    expect(b.questions[0]?.line).toBe(19);
    expect(b.questions[0]?.fieldLine('ask')).toBe(22);
    expect(b.questions[0]?.fieldLine('explain')).toBe(20); // absent: the line after the fence
  });
  it('finds mermaid blocks', () => {
    expect(b.mermaid).toEqual([
      {
        line: 26,
        code: 'flowchart LR\n  accTitle: Path\n  accDescr: A client reaches a Pod.\n  C --> P',
      },
    ]);
  });
  it('reports YAML errors on file lines', () => {
    const bad = extractBlocks('```question\nid: q\nscene: "open\n```\n', 3).questions[0];
    expect(bad?.data).toBeUndefined();
    expect(bad?.yamlErrors[0]?.line).toBe(5);
  });
});

describe('missingAccessibility', () => {
  it('needs accTitle and accDescr', () => {
    expect(missingAccessibility('flowchart LR\n  accTitle: T\n  accDescr: D\n  A --> B')).toEqual(
      [],
    );
    expect(
      missingAccessibility('sequenceDiagram\n  accTitle: T\n  accDescr {\n    Long\n  }\n'),
    ).toEqual([]);
    expect(missingAccessibility('flowchart LR\n  A --> B')).toEqual(['accTitle', 'accDescr']);
    expect(missingAccessibility('flowchart LR\n  accTitle:\n  accDescr: D')).toEqual(['accTitle']);
  });
});
