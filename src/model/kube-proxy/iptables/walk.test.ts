/**
 * The rule walker on small hand-written rule sets. Expected behaviour is netfilter's
 * (iptables(8) / iptables-extensions(8), "TARGETS"): a built-in chain's rules in order; a
 * jump to a user chain descends; RETURN, or falling off the end of a user chain, resumes
 * after the jump; RETURN or the end of a built-in chain applies its policy; ACCEPT, DROP,
 * REJECT end the table; DNAT and MASQUERADE are terminating targets of the nat table;
 * MARK is non-terminating; a rule with no target only counts packets.
 */
import { describe, it, expect } from 'vitest';
import type { Match, Target } from './rule';
import { RuleWriter, effectiveProbability, finishRuleset } from './rule';
import type { StatisticChooser, WalkEnv, WalkPacket } from './walk';
import { statisticOptions, walkTable } from './walk';

const PKT: WalkPacket = {
  protocol: 'tcp',
  src: '198.51.100.23',
  sport: 51234,
  dst: '192.168.0.11',
  dport: 31000,
  mark: 0,
};

const first: StatisticChooser = () => 0;

function env(overrides: Partial<WalkEnv> = {}): WalkEnv {
  return {
    isLocal: (ip) => ip === '192.168.0.11',
    ctstates: new Set(['NEW']),
    choose: first,
    ...overrides,
  };
}

type Spec = [chain: string, matches: Match[], target: Target][];

function ruleset(table: 'nat' | 'filter', spec: Spec) {
  const w = new RuleWriter();
  for (const b of table === 'nat'
    ? ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']
    : ['INPUT', 'FORWARD', 'OUTPUT'])
    w.chain(table, b, true);
  for (const [chain, m, t] of spec) w.add(table, chain, m, t);
  return finishRuleset(w, 'node-x', 0x4000);
}

const jump = (chain: string): Target => ({ kind: 'jump', chain });
const chainsOf = (hits: { rule: { chain: string } }[]) => hits.map((h) => h.rule.chain);

describe('jumps and returns', () => {
  it('descends into a user chain, RETURNs, and continues after the jump', () => {
    const rs = ruleset('nat', [
      ['PREROUTING', [], jump('A')],
      ['PREROUTING', [], { kind: 'DNAT', to: '10.244.1.5:8080' }],
      ['A', [], jump('B')],
      ['A', [], { kind: 'MARK', op: 'or', value: 0x1 }],
      ['B', [], { kind: 'RETURN' }],
      ['B', [], { kind: 'DROP' }], // never reached: RETURN left B
    ]);
    const r = walkTable(rs, 'nat', 'PREROUTING', PKT, env());
    expect(chainsOf(r.hits)).toEqual(['PREROUTING', 'A', 'B', 'A', 'PREROUTING']);
    expect(r.verdict).toBe('DNAT');
    expect(r.packet.mark).toBe(0x1);
  });

  it('falls off the end of a user chain back into the caller', () => {
    const rs = ruleset('nat', [
      ['PREROUTING', [], jump('A')],
      ['PREROUTING', [], { kind: 'MARK', op: 'or', value: 0x2 }],
      ['A', [{ kind: 'dport', port: 1 }], { kind: 'DROP' }], // no match
    ]);
    const r = walkTable(rs, 'nat', 'PREROUTING', PKT, env());
    expect(chainsOf(r.hits)).toEqual(['PREROUTING', 'PREROUTING']);
    expect(r.verdict).toBe('ACCEPT');
    expect(r.decisive).toBeUndefined();
  });

  it('RETURN in a built-in chain applies the policy (ACCEPT)', () => {
    const rs = ruleset('nat', [
      ['POSTROUTING', [], { kind: 'RETURN' }],
      ['POSTROUTING', [], { kind: 'MASQUERADE', randomFully: true }],
    ]);
    const r = walkTable(rs, 'nat', 'POSTROUTING', PKT, env());
    expect(r.verdict).toBe('ACCEPT');
    expect(r.hits).toHaveLength(1);
  });

  it('throws on a jump to a chain that does not exist', () => {
    const rs = ruleset('nat', [['PREROUTING', [], jump('NOPE')]]);
    expect(() => walkTable(rs, 'nat', 'PREROUTING', PKT, env())).toThrow(/NOPE/);
  });

  it('throws on a jump loop rather than recursing forever', () => {
    const rs = ruleset('nat', [
      ['PREROUTING', [], jump('A')],
      ['A', [], jump('A')],
    ]);
    expect(() => walkTable(rs, 'nat', 'PREROUTING', PKT, env())).toThrow(/depth/);
  });
});

describe('targets', () => {
  it('MARK continues; DNAT terminates (rules after it are not evaluated)', () => {
    const rs = ruleset('nat', [
      ['PREROUTING', [], { kind: 'MARK', op: 'or', value: 0x4000 }],
      ['PREROUTING', [], { kind: 'DNAT', to: '10.244.3.9:8080' }],
      ['PREROUTING', [], { kind: 'DNAT', to: '10.244.1.5:8080' }],
    ]);
    const r = walkTable(rs, 'nat', 'PREROUTING', PKT, env());
    expect(r.verdict).toBe('DNAT');
    expect(r.hits).toHaveLength(2);
    expect(r.packet).toEqual({ ...PKT, dst: '10.244.3.9', dport: 8080, mark: 0x4000 });
    expect(r.decisive?.index).toBe(1);
    // The input packet is not mutated.
    expect(PKT.dst).toBe('192.168.0.11');
  });

  it('MARK --or-mark then --xor-mark clears the bit (KUBE-MARK-MASQ then KUBE-POSTROUTING)', () => {
    const rs = ruleset('nat', [
      ['POSTROUTING', [], { kind: 'MARK', op: 'or', value: 0x4000 }],
      ['POSTROUTING', [], { kind: 'MARK', op: 'xor', value: 0x4000 }],
      ['POSTROUTING', [], { kind: 'MASQUERADE', randomFully: true }],
    ]);
    const r = walkTable(rs, 'nat', 'POSTROUTING', { ...PKT, mark: 0x1 }, env());
    expect(r.verdict).toBe('MASQUERADE');
    expect(r.packet.mark).toBe(0x1);
  });

  it('a rule without a target only counts, and the walk goes on', () => {
    const rs = ruleset('nat', [
      ['PREROUTING', [{ kind: 'comment', text: 'count me' }], { kind: 'none' }],
      ['PREROUTING', [], { kind: 'DNAT', to: '10.244.1.5:8080' }],
    ]);
    const r = walkTable(rs, 'nat', 'PREROUTING', PKT, env());
    expect(r.hits).toHaveLength(2);
    expect(r.verdict).toBe('DNAT');
  });

  it.each(['ACCEPT', 'DROP', 'REJECT'] as const)('%s in a user chain ends the table', (kind) => {
    const rs = ruleset('filter', [
      ['INPUT', [], jump('A')],
      ['INPUT', [], { kind: 'DROP' }],
      ['A', [], { kind }],
    ]);
    const r = walkTable(rs, 'filter', 'INPUT', PKT, env());
    expect(r.verdict).toBe(kind);
    expect(chainsOf(r.hits)).toEqual(['INPUT', 'A']);
    expect(r.decisive?.chain).toBe('A');
  });
});

describe('matches', () => {
  const one = (m: Match[], p: WalkPacket = PKT, e: WalkEnv = env()) =>
    walkTable(ruleset('filter', [['INPUT', m, { kind: 'DROP' }]]), 'filter', 'INPUT', p, e)
      .verdict === 'DROP';

  it('-s / -d with and without !', () => {
    expect(one([{ kind: 'src', cidr: '198.51.100.0/24', not: false }])).toBe(true);
    expect(one([{ kind: 'src', cidr: '10.244.0.0/16', not: true }])).toBe(true);
    expect(one([{ kind: 'src', cidr: '10.244.0.0/16', not: false }])).toBe(false);
    expect(one([{ kind: 'dst', cidr: '192.168.0.11', not: false }])).toBe(true);
    expect(one([{ kind: 'dst', cidr: '127.0.0.0/8', not: true }])).toBe(true);
  });

  it('-p / --dport', () => {
    expect(
      one([
        { kind: 'proto', proto: 'tcp' },
        { kind: 'dport', port: 31000 },
      ]),
    ).toBe(true);
    expect(one([{ kind: 'proto', proto: 'udp' }])).toBe(false);
    expect(one([{ kind: 'dport', port: 80 }])).toBe(false);
  });

  it('-m addrtype --src-type/--dst-type LOCAL asks the node', () => {
    expect(one([{ kind: 'addrtype', dir: 'dst', type: 'LOCAL' }])).toBe(true);
    expect(one([{ kind: 'addrtype', dir: 'src', type: 'LOCAL' }])).toBe(false);
  });

  it('-m mark [!] --mark value/mask', () => {
    const marked = { ...PKT, mark: 0x4001 };
    expect(one([{ kind: 'mark', value: 0x4000, mask: 0x4000, not: false }], marked)).toBe(true);
    expect(one([{ kind: 'mark', value: 0x4000, mask: 0x4000, not: true }], marked)).toBe(false);
    expect(one([{ kind: 'mark', value: 0x4000, mask: 0x4000, not: true }])).toBe(true);
  });

  it('-m conntrack [!] --ctstate matches any listed state', () => {
    expect(one([{ kind: 'ctstate', states: ['NEW'], not: false }])).toBe(true);
    expect(one([{ kind: 'ctstate', states: ['RELATED', 'ESTABLISHED'], not: false }])).toBe(false);
    expect(one([{ kind: 'ctstate', states: ['RELATED', 'ESTABLISHED', 'DNAT'], not: true }])).toBe(
      true,
    );
    const dnatted = env({ ctstates: new Set(['NEW', 'DNAT']) });
    expect(
      one(
        [{ kind: 'ctstate', states: ['RELATED', 'ESTABLISHED', 'DNAT'], not: true }],
        PKT,
        dnatted,
      ),
    ).toBe(false);
  });

  it('comments and nfacct never stop a match', () => {
    expect(
      one([
        { kind: 'comment', text: 'x' },
        { kind: 'nfacct', name: 'y' },
      ]),
    ).toBe(true);
  });
});

// kube-proxy writeServiceToEndpointRules: rule i of n carries --probability 1/(n-i); the
// kernel (xt_statistic) matches when (random & 0x7FFFFFFF) < lround(p * 2^31), so each of n
// endpoints gets 1/n, up to the 31-bit rounding of each stored probability.
describe('statistic cascade', () => {
  const cascade = (n: number) =>
    ruleset(
      'nat',
      Array.from({ length: n }, (_, i): Spec[number] => [
        'KUBE-SVC-X',
        i < n - 1 ? [{ kind: 'statistic', probability: 1 / (n - i) }] : [],
        jump(`KUBE-SEP-${i}`),
      ]),
    ).tables.nat.find((c) => c.name === 'KUBE-SVC-X');

  it('1/3, 1/2, 1 gives each endpoint 1/3', () => {
    const chain = cascade(3);
    if (!chain) throw new Error('no chain');
    const opts = statisticOptions(chain);
    expect(opts.map((o) => o.target)).toEqual(['KUBE-SEP-0', 'KUBE-SEP-1', 'KUBE-SEP-2']);
    for (const o of opts) expect(Math.abs(o.probability - 1 / 3)).toBeLessThan(2 ** -30);
    expect(opts.reduce((a, o) => a + o.probability, 0)).toBeCloseTo(1, 12);
    // The first rule's real probability is the stored 715827883 / 2^31.
    expect(opts[0]?.probability).toBe(715827883 / 2 ** 31);
  });

  it.each([2, 4, 5, 7, 10])('%i endpoints: each 1/n, summing to 1', (n) => {
    const chain = cascade(n);
    if (!chain) throw new Error('no chain');
    const opts = statisticOptions(chain);
    expect(opts).toHaveLength(n);
    for (const o of opts) expect(Math.abs(o.probability - 1 / n)).toBeLessThan(n * 2 ** -31);
    expect(Math.abs(opts.reduce((a, o) => a + o.probability, 0) - 1)).toBeLessThan(1e-12);
  });

  it('effectiveProbability is the 31-bit fixed point value', () => {
    expect(effectiveProbability(0.5)).toBe(0.5);
    expect(effectiveProbability(1 / 3)).toBe(715827883 / 2 ** 31);
  });

  it('the walk takes exactly the rule the chooser picks', () => {
    const rs = ruleset('nat', [
      ['PREROUTING', [], jump('KUBE-SVC-X')],
      ['KUBE-SVC-X', [{ kind: 'statistic', probability: 1 / 3 }], jump('KUBE-SEP-0')],
      ['KUBE-SVC-X', [{ kind: 'statistic', probability: 1 / 2 }], jump('KUBE-SEP-1')],
      ['KUBE-SVC-X', [], jump('KUBE-SEP-2')],
      ['KUBE-SEP-0', [], { kind: 'DNAT', to: '10.0.0.1:80' }],
      ['KUBE-SEP-1', [], { kind: 'DNAT', to: '10.0.0.2:80' }],
      ['KUBE-SEP-2', [], { kind: 'DNAT', to: '10.0.0.3:80' }],
    ]);
    for (const pick of [0, 1, 2]) {
      const seen: number[] = [];
      const r = walkTable(
        rs,
        'nat',
        'PREROUTING',
        PKT,
        env({
          choose: (chain, options) => {
            seen.push(options.length);
            expect(chain).toBe('KUBE-SVC-X');
            return pick;
          },
        }),
      );
      expect(seen).toEqual([3]);
      expect(r.packet.dst).toBe(`10.0.0.${pick + 1}`);
      expect(r.choices).toEqual([expect.objectContaining({ chain: 'KUBE-SVC-X', chosen: pick })]);
    }
  });

  it('skips ClientIP-affinity (recent --rcheck) rules: no client is remembered yet', () => {
    const rs = ruleset('nat', [
      [
        'KUBE-SVC-X',
        [{ kind: 'recent', name: 'KUBE-SEP-0', mode: 'rcheck', seconds: 10800 }],
        jump('KUBE-SEP-0'),
      ],
      ['KUBE-SVC-X', [{ kind: 'statistic', probability: 0.5 }], jump('KUBE-SEP-0')],
      ['KUBE-SVC-X', [], jump('KUBE-SEP-1')],
    ]);
    const chain = rs.tables.nat.find((c) => c.name === 'KUBE-SVC-X');
    if (!chain) throw new Error('no chain');
    expect(statisticOptions(chain).map((o) => [o.target, o.probability])).toEqual([
      ['KUBE-SEP-0', 0.5],
      ['KUBE-SEP-1', 0.5],
    ]);
  });
});
