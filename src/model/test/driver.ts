/**
 * A small headless test driver for the model, in the spirit of tldraw's `TestEditor`:
 * build a scene fluently, run it, and assert on the trace and the rules with domain words.
 *
 * ```ts
 * const t = scene({ externalTrafficPolicy: 'Local' }).pin({ lbTarget: 'node-1' }).trace();
 * t.expectPacketAt(2, 'node:node-1');
 * t.expectRule(2, 'KUBE-NODEPORTS');
 * t.expectDelivered().toMatchObject({ snat: false });
 * ```
 *
 * Test-only code: it imports vitest's `expect`. Never import it from non-test modules.
 */
import { expect } from 'vitest';
import { DEFAULT_SCENE, canonicalObjects, formatTable, runScene } from '../index';
import type {
  Choices,
  IptablesRuleset,
  Outcome,
  Packet,
  Place,
  ScenarioObject,
  SceneOptions,
  SceneResult,
  Trace,
  TraceStep,
} from '../index';

/** The canonical scenario's addresses, as DESIGN.md and the lead's brief give them. */
export const CANON = {
  service: 'default/web',
  servicePort: 'default/web:http',
  clusterIP: '10.96.0.50',
  port: 80,
  targetPort: 8080,
  nodePort: 31000,
  lbIP: '203.0.113.7',
  lbBackend: '192.168.0.250',
  clusterCIDR: '10.244.0.0/16',
  nodes: {
    'node-1': { ip: '192.168.0.11', podCIDR: '10.244.1.0/24', bridge: '10.244.1.1' },
    'node-2': { ip: '192.168.0.12', podCIDR: '10.244.2.0/24', bridge: '10.244.2.1' },
    'node-3': { ip: '192.168.0.13', podCIDR: '10.244.3.0/24', bridge: '10.244.3.1' },
  } as Record<string, { ip: string; podCIDR: string; bridge: string }>,
  pods: {
    '10.244.1.5': { name: 'default/web-6d8f9c7b5-x2k4p', node: 'node-1' },
    '10.244.3.9': { name: 'default/web-6d8f9c7b5-q7m9z', node: 'node-3' },
  } as Record<string, { name: string; node: string }>,
  clients: {
    internet: { address: '198.51.100.23', sport: 51234 },
    node: { address: '192.168.0.12', sport: 51234, node: 'node-2' },
    pod: { address: '10.244.2.4', sport: 51234, node: 'node-2' },
  } as Record<string, { address: string; sport: number; node?: string }>,
  /** Chain names computed per kube-proxy's `portProtoHash` / `servicePortEndpointChainName`. */
  chains: {
    svc: 'KUBE-SVC-CDGGSHYLG3RE2FKL',
    svl: 'KUBE-SVL-CDGGSHYLG3RE2FKL',
    ext: 'KUBE-EXT-CDGGSHYLG3RE2FKL',
    fw: 'KUBE-FW-CDGGSHYLG3RE2FKL',
    sep1: 'KUBE-SEP-AFGSLHOD2HFNCBX4', // 10.244.1.5:8080
    sep3: 'KUBE-SEP-RBX5X5TOEG5GD3RO', // 10.244.3.9:8080
  },
} as const;

/** A fluent scene under construction. Each call returns a new driver (no shared state). */
export class SceneDriver {
  constructor(
    readonly options: SceneOptions,
    readonly objects: ScenarioObject[] = canonicalObjects(),
  ) {}

  with(overrides: Partial<SceneOptions>): SceneDriver {
    return new SceneDriver({ ...this.options, ...overrides }, this.objects);
  }

  pin(choices: Choices): SceneDriver {
    return this.with({ choices: { ...this.options.choices, ...choices } });
  }

  seed(seed: number): SceneDriver {
    return this.with({ seed });
  }

  fail(...nodes: string[]): SceneDriver {
    return this.with({ failedNodes: nodes });
  }

  /** Edits the scenario's objects (a fresh copy) before the scene is applied. */
  edit(fn: (objects: ScenarioObject[]) => void): SceneDriver {
    const copy = structuredClone(this.objects);
    fn(copy);
    return new SceneDriver(this.options, copy);
  }

  run(): SceneResult {
    return runScene(this.objects, this.options);
  }

  trace(): TraceDriver {
    return new TraceDriver(this.run().trace, this.options);
  }

  rules(node: string): RulesDriver {
    const rs = this.run().rules[node];
    if (!rs || rs.mode !== 'iptables') throw new Error(`no iptables rules for ${node}`);
    return new RulesDriver(rs as IptablesRuleset);
  }
}

/** Starts a scene from {@link DEFAULT_SCENE}. */
export function scene(overrides: Partial<SceneOptions> = {}): SceneDriver {
  return new SceneDriver({ ...DEFAULT_SCENE, choices: {}, failedNodes: [], ...overrides });
}

/** `ip:port` of a packet's source or destination. */
export const src = (p: Packet): string => `${p.src}:${p.sport}`;
export const dst = (p: Packet): string => `${p.dst}:${p.dport}`;

/** Every rule text a step carries: its own and its trail. */
export function ruleTexts(s: TraceStep): string[] {
  const r = s.rule;
  if (!r) return [];
  if (r.kind === 'kube-proxy') return [r.text, ...r.trail.map((h) => h.text)];
  return [r.text];
}

/** Assertions and look-ups on one trace. */
export class TraceDriver {
  constructor(
    readonly trace: Trace,
    readonly options?: SceneOptions,
  ) {}

  get steps(): TraceStep[] {
    return this.trace.steps;
  }

  get outcome(): Outcome {
    return this.trace.outcome;
  }

  step(i: number): TraceStep {
    const s = this.trace.steps[i];
    if (!s) throw new Error(`no step ${i} (the trace has ${this.trace.steps.length})`);
    return s;
  }

  get request(): TraceStep[] {
    return this.steps.filter((s) => s.direction === 'request');
  }

  get reply(): TraceStep[] {
    return this.steps.filter((s) => s.direction === 'reply');
  }

  /** Request steps at `place`. */
  at(place: Place): TraceStep[] {
    return this.request.filter((s) => s.at === place);
  }

  /** The first request step at a node (the packet as it reached that node). */
  firstAt(place: Place): TraceStep | undefined {
    return this.request.find((s) => s.at === place);
  }

  /** The nodes the request visited, in order, without repeats. */
  get nodesVisited(): string[] {
    const out: string[] = [];
    for (const s of this.request)
      if (s.at.startsWith('node:')) {
        const n = s.at.slice(5);
        if (out[out.length - 1] !== n) out.push(n);
      }
    return out;
  }

  /** Every rule text matched on any node for the request, in order. */
  get matchedRuleTexts(): string[] {
    return this.request.flatMap(ruleTexts);
  }

  decisions(kind: 'lb-target' | 'endpoint') {
    return this.steps.flatMap((s) => (s.decision?.kind === kind ? [s.decision] : []));
  }

  expectPacketAt(i: number, place: Place): TraceStep {
    const s = this.step(i);
    expect(s.at, `step ${i} place`).toBe(place);
    return s;
  }

  /** Asserts step `i` was decided by a kube-proxy rule in a chain starting `chainPrefix`. */
  expectRule(i: number, chainPrefix: string): string {
    const r = this.step(i).rule;
    expect(r?.kind, `step ${i} rule kind`).toBe('kube-proxy');
    if (r?.kind !== 'kube-proxy') throw new Error('unreachable');
    expect(r.chain.startsWith(chainPrefix), `step ${i}: ${r.chain} starts ${chainPrefix}`).toBe(
      true,
    );
    return r.text;
  }

  expectOutcome<K extends Outcome['kind']>(kind: K): Outcome & { kind: K } {
    expect(this.outcome.kind, JSON.stringify(this.outcome)).toBe(kind);
    return this.outcome as Outcome & { kind: K };
  }

  expectDelivered(): Extract<Outcome, { kind: 'delivered' }> {
    return this.expectOutcome('delivered');
  }
}

/** Look-ups on one node's rule set. */
export class RulesDriver {
  constructor(readonly rs: IptablesRuleset) {}

  /** The rule texts of `table`/`chain`, in order; undefined when the chain does not exist. */
  chain(table: 'filter' | 'nat', name: string): string[] | undefined {
    return this.rs.tables[table].find((c) => c.name === name)?.rules.map((r) => r.text);
  }

  hasChain(table: 'filter' | 'nat', name: string): boolean {
    return this.rs.tables[table].some((c) => c.name === name);
  }

  chainNames(table: 'filter' | 'nat'): string[] {
    return this.rs.tables[table].map((c) => c.name);
  }

  /** Every rule line of `table`. */
  lines(table: 'filter' | 'nat'): string[] {
    return this.rs.tables[table].flatMap((c) => c.rules.map((r) => r.text));
  }

  save(table: 'filter' | 'nat'): string {
    return formatTable(this.rs, table);
  }
}
