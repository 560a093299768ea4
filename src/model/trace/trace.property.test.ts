/**
 * Properties of the trace over random scenes (fast-check). Each property is a consequence of
 * Kubernetes' behaviour (sources as in trace.test.ts) or of the trace's own contract
 * (src/model/trace/types.ts, ARCHITECTURE.md "Randomness").
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { DialTarget, SceneOptions, Trace } from '../index';
import { CANON, TraceDriver, scene } from '../test/driver';

const NODES = ['node-1', 'node-2', 'node-3'] as const;

const dialArb: fc.Arbitrary<DialTarget> = fc.oneof(
  fc.constant<DialTarget>({ kind: 'LoadBalancer' }),
  fc.constantFrom(...NODES).map((n): DialTarget => ({ kind: 'NodePort', nodeName: n })),
  fc.constant<DialTarget>({ kind: 'ClusterIP' }),
);

const sceneArb: fc.Arbitrary<Partial<SceneOptions>> = fc.record({
  externalTrafficPolicy: fc.constantFrom('Cluster' as const, 'Local' as const),
  ipMode: fc.constantFrom('VIP' as const, 'Proxy' as const),
  delivery: fc.constantFrom('NodePort' as const, 'LoadBalancerIP' as const),
  published: fc.boolean(),
  failedNodes: fc.subarray([...NODES]),
  client: fc.constantFrom('internet', 'node', 'pod'),
  dial: dialArb,
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  choices: fc.record(
    {
      lbTarget: fc.constantFrom(...NODES),
      endpoint: fc.constantFrom('10.244.1.5:8080', '10.244.3.9:8080', '10.244.9.9:8080'),
    },
    { requiredKeys: [] },
  ),
});

const run = (opts: Partial<SceneOptions>): Trace => scene(opts).trace().trace;

const RUNS = { numRuns: 400 };

describe('trace properties over random scenes', () => {
  it('ends delivered to a ready pod on a live node, or fails with a reason', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        const t = new TraceDriver(run(opts));
        const o = t.outcome;
        if (o.kind === 'delivered') {
          const pod = CANON.pods[o.podIP];
          expect(pod).toBeDefined();
          expect(o.pod).toBe(pod?.name);
          expect(o.node).toBe(pod?.node);
          expect(opts.failedNodes).not.toContain(o.node);
          return;
        }
        expect(['dropped', 'rejected', 'timed-out', 'no-address']).toContain(o.kind);
        expect(o.reason.trim().length).toBeGreaterThan(0);
        if (o.kind === 'dropped' || o.kind === 'rejected') {
          // The naming rule is the one that ended the walk: the trace's last step shows it.
          expect(o.rule).toMatch(o.kind === 'dropped' ? / -j DROP$/ : / -j REJECT /);
          const last = t.steps[t.steps.length - 1];
          expect(last?.rule?.text).toBe(o.rule);
        }
        // Nothing answers, so there is no reply path — except when the pod did answer but the
        // reply came back another way (asymmetric return) and the client discarded it.
        if (t.reply.length > 0) {
          expect(o).toMatchObject({ kind: 'timed-out', at: 'client' });
          expect(t.reply[t.reply.length - 1]?.at).toBe('client');
        }
      }),
      RUNS,
    );
  });

  it('Local + internet client via the balancer never SNATs and never crosses nodes', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        const o = run({
          ...opts,
          externalTrafficPolicy: 'Local',
          client: 'internet',
          dial: { kind: 'LoadBalancer' },
        }).outcome;
        if (o.kind !== 'delivered') return;
        expect(o.snat).toBe(false);
        expect(o.crossedNodes).toBe(false);
        expect(o.sourceIPSeenByPod).toBe(
          opts.ipMode === 'Proxy' ? CANON.lbBackend : CANON.clients.internet?.address,
        );
      }),
      RUNS,
    );
  });

  it('every decision: eligible probabilities sum to 1, ineligible ones are 0, the choice is eligible', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        for (const s of run(opts).steps) {
          const d = s.decision;
          if (!d) continue;
          const eligible = d.candidates.filter((c) => c.eligible);
          expect(Math.abs(eligible.reduce((a, c) => a + c.probability, 0) - 1)).toBeLessThan(1e-9);
          for (const c of d.candidates) {
            expect(c.probability).toBeGreaterThanOrEqual(0);
            expect(c.probability).toBeLessThanOrEqual(1);
            if (!c.eligible) expect(c.probability).toBe(0);
          }
          expect(eligible.map((c) => c.id)).toContain(d.chosen);
          expect(new Set(d.candidates.map((c) => c.id)).size).toBe(d.candidates.length);
        }
      }),
      RUNS,
    );
  });

  it('pins are honoured when the pinned option is eligible', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        const t = run(opts);
        for (const s of t.steps) {
          const d = s.decision;
          if (!d) continue;
          const pin = d.kind === 'lb-target' ? opts.choices?.lbTarget : opts.choices?.endpoint;
          const eligible = d.candidates.some((c) => c.id === pin && c.eligible);
          if (pin !== undefined && eligible) {
            expect(d.chosen).toBe(pin);
            expect(d.pinned).toBe(true);
          }
          if (d.pinned) expect(d.chosen).toBe(pin);
        }
      }),
      RUNS,
    );
  });

  it('the same scene and seed give a deep-equal trace', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        expect(run(opts)).toEqual(run(structuredClone(opts)));
      }),
      { numRuns: 200 },
    );
  });

  it('pinning the choices a seed drew gives the same trace (each draw has its own stream)', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        const free = run({ ...opts, choices: {} });
        const lb = free.steps.find((s) => s.decision?.kind === 'lb-target')?.decision?.chosen;
        const ep = free.steps.find((s) => s.decision?.kind === 'endpoint')?.decision?.chosen;
        const pinned = run({
          ...opts,
          choices: { ...(lb ? { lbTarget: lb } : {}), ...(ep ? { endpoint: ep } : {}) },
        });
        const unpin = (t: Trace) =>
          t.steps.map((s) =>
            s.decision ? { ...s, decision: { ...s.decision, pinned: false } } : s,
          );
        expect(unpin(pinned)).toEqual(unpin(free));
        expect(pinned.outcome).toEqual(free.outcome);
      }),
      { numRuns: 200 },
    );
  });

  it('step indices are 0..n-1 and `changed` lists exactly the differing header fields', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        run(opts).steps.forEach((s, i) => {
          expect(s.index).toBe(i);
          expect(s.id).toBe(`s${i}`);
          const diff = (['src', 'sport', 'dst', 'dport', 'mark'] as const).filter(
            (f) => s.before[f] !== s.after[f],
          );
          expect(s.changed).toEqual(diff);
          expect(s.after.protocol).toBe(s.before.protocol);
          expect(s.after.flags).toBe(s.before.flags);
        });
      }),
      RUNS,
    );
  });

  it('a delivered connection gets its SYN-ACK from the address it dialled, through conntrack', () => {
    fc.assert(
      fc.property(sceneArb, (opts) => {
        const t = new TraceDriver(run(opts));
        if (t.outcome.kind !== 'delivered') return;
        const s0 = t.step(0);
        const last = t.steps[t.steps.length - 1];
        expect(last?.direction).toBe('reply');
        expect(last?.at).toBe('client');
        expect(`${last?.after.src}:${last?.after.sport}`).toBe(
          `${s0.before.dst}:${s0.before.dport}`,
        );
        expect(`${last?.after.dst}:${last?.after.dport}`).toBe(
          `${s0.before.src}:${s0.before.sport}`,
        );
        for (const e of t.trace.conntrack) {
          expect(e.state).toBe('SYN_RECV');
          expect(e.unreplied).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('random ports stay in their ranges', () => {
    // --random-fully: 1024–65535 (nf_nat_proto.c); a proxy's ephemeral port: 32768–60999.
    fc.assert(
      fc.property(sceneArb, (opts) => {
        for (const s of run(opts).steps) {
          if (s.transform === 'SNAT' && s.after.sport !== s.before.sport)
            expect(s.after.sport >= 1024 && s.after.sport <= 65535).toBe(true);
          // The proxy's new connection (request direction) comes from its ephemeral range.
          if (s.transform === 'proxy' && s.direction === 'request')
            expect(s.after.sport >= 32768 && s.after.sport <= 60999).toBe(true);
        }
      }),
      RUNS,
    );
  });
});
