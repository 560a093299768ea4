import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MermaidConfig } from 'mermaid';

/** What the fake mermaid was asked to do, in order. */
const calls: string[] = [];
/** Resolvers for renders in flight, so a test decides when each render finishes. */
const pending: (() => void)[] = [];

// The loader imports mermaid's self-contained ESM build (see mermaidLoader.ts).
vi.mock('mermaid/dist/mermaid.esm.min.mjs', () => ({
  default: {
    initialize: (config: MermaidConfig) => calls.push(`initialize ${config.theme}`),
    render: (id: string, source: string) => {
      calls.push(`render ${source} as ${id}`);
      return new Promise((resolve, reject) => {
        pending.push(() => {
          calls.push(`done ${source}`);
          if (source.startsWith('broken')) reject(new Error('Parse error on line 1'));
          else resolve({ svg: `<svg id="${id}">${source}</svg>`, diagramType: 'flowchart-v2' });
        });
      });
    },
  },
}));

/** A fresh loader per test: its theme and queue are module state. */
async function freshLoader() {
  vi.resetModules();
  return import('./mermaidLoader');
}

/** Lets queued promise callbacks run, then finishes the oldest render in flight. */
async function finishNextRender() {
  for (let i = 0; i < 20 && pending.length === 0; i++) await Promise.resolve();
  pending.shift()?.();
}

beforeEach(() => {
  calls.length = 0;
  pending.length = 0;
});

describe('renderMermaid', () => {
  it('renders diagrams one at a time, re-initialising only when the theme changes', async () => {
    const { renderMermaid } = await freshLoader();
    const a = renderMermaid('A', 'light');
    const b = renderMermaid('B', 'dark');
    const c = renderMermaid('C', 'dark');
    const d = renderMermaid('D', 'light');
    for (let i = 0; i < 4; i++) await finishNextRender();
    expect(await Promise.all([a, b, c, d])).toEqual([
      { status: 'rendered', svg: '<svg id="mermaid-diagram-1">A</svg>', theme: 'light' },
      { status: 'rendered', svg: '<svg id="mermaid-diagram-2">B</svg>', theme: 'dark' },
      { status: 'rendered', svg: '<svg id="mermaid-diagram-3">C</svg>', theme: 'dark' },
      { status: 'rendered', svg: '<svg id="mermaid-diagram-4">D</svg>', theme: 'light' },
    ]);
    // Nothing starts before the render ahead of it is done: B's dark initialize waits for A.
    expect(calls).toEqual([
      'initialize default',
      'render A as mermaid-diagram-1',
      'done A',
      'initialize dark',
      'render B as mermaid-diagram-2',
      'done B',
      'render C as mermaid-diagram-3',
      'done C',
      'initialize default',
      'render D as mermaid-diagram-4',
      'done D',
    ]);
  });

  it("returns mermaid's error message, and the queue goes on after a failure", async () => {
    const { renderMermaid } = await freshLoader();
    const bad = renderMermaid('broken', 'light');
    const good = renderMermaid('A', 'light');
    await finishNextRender();
    await finishNextRender();
    expect(await bad).toEqual({ status: 'error', message: 'Parse error on line 1' });
    expect(await good).toMatchObject({ status: 'rendered' });
  });

  it('skips a render whose signal was aborted while it waited', async () => {
    const { renderMermaid } = await freshLoader();
    const first = renderMermaid('A', 'light');
    const controller = new AbortController();
    const skipped = renderMermaid('B', 'dark', controller.signal);
    controller.abort();
    await finishNextRender();
    expect(await first).toMatchObject({ status: 'rendered' });
    expect(await skipped).toEqual({ status: 'cancelled' });
    expect(calls).toEqual(['initialize default', 'render A as mermaid-diagram-1', 'done A']);
  });

  it('configures mermaid for strict security, no autostart and quiet logging', async () => {
    const { mermaidConfig } = await freshLoader();
    expect(mermaidConfig('dark')).toMatchObject({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: 'dark',
      logLevel: 'fatal',
      suppressErrorRendering: true,
    });
    // mermaid's light theme is called "default".
    expect(mermaidConfig('light').theme).toBe('default');
  });
});

describe('parseDiagramText', () => {
  it('reads accTitle and a one-line accDescr (content/AUTHORING.md, Diagrams)', async () => {
    const { parseDiagramText } = await freshLoader();
    const source = [
      'flowchart LR',
      '  accTitle: The full picture',
      '  accDescr: A client reaches the cloud load balancer, which forwards to a NodePort.',
      '  C[Client] --> LB[Cloud load balancer]',
    ].join('\n');
    expect(parseDiagramText(source)).toEqual({
      title: 'The full picture',
      description: 'A client reaches the cloud load balancer, which forwards to a NodePort.',
    });
  });

  it('reads a multi-line accDescr { … } block, joining its lines', async () => {
    const { parseDiagramText } = await freshLoader();
    const source = [
      'sequenceDiagram',
      '  accTitle: SYN through DNAT',
      '  accDescr {',
      '    The client sends a SYN.',
      '    kube-proxy rewrites its destination.',
      '  }',
      '  Client->>Node: SYN',
    ].join('\n');
    expect(parseDiagramText(source)).toEqual({
      title: 'SYN through DNAT',
      description: 'The client sends a SYN. kube-proxy rewrites its destination.',
    });
  });

  it('gives nothing for a diagram without them, and ignores the words elsewhere', async () => {
    const { parseDiagramText } = await freshLoader();
    expect(parseDiagramText('flowchart LR\n  A[accTitle: not one] --> B')).toEqual({});
  });
});
