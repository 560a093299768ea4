/**
 * The generator against kube-proxy's own test expectations: for each reproduced test of
 * kubernetes `pkg/proxy/iptables/proxier_test.go` (TestOverallIPTablesRules and smaller
 * LoadBalancer tests; see testdata/proxierTests.ts for the clusters, the fake proxiers and
 * the sources), the iptables-restore input the test expects — copied test data, in
 * testdata/*.restore — is compared with {@link formatRestore} of our rules for the same
 * cluster. Both sides are normalised as the kube-proxy test helper `sortIPTablesRules` does.
 */
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import type { ScenarioObject } from '../../k8s/objects';
import { resolveCluster } from '../../scenario/resolve';
import { endpointSet } from './endpointSet';
import { generateIptables } from './generate';
import { formatRestore, formatWrittenProbability, restoreText } from './rule';
import {
  NEW_FAKE,
  PROXIER_TESTS,
  TEST_HOSTNAME,
  ipModeObjects,
  largeClusterObjects,
} from './testdata/proxierTests';

const DIR = 'src/model/kube-proxy/iptables/testdata';
const fixture = (name: string) => readFileSync(`${DIR}/${name}.restore`, 'utf8');

/** The objects of the reproduced kube-proxy test called `name`. */
function objectsOf(name: string): ScenarioObject[] {
  const t = PROXIER_TESTS.find((x) => x.name === name);
  if (!t) throw new Error(`no test ${name}`);
  return t.objects;
}

interface DumpChain {
  name: string;
  rules: string[];
}
interface DumpTable {
  name: string;
  chains: DumpChain[];
}

/** Parses iptables-restore text (`*table`, `:CHAIN - [0:0]`, `-A CHAIN …`, `COMMIT`). */
function parseDump(text: string): DumpTable[] {
  const tables: DumpTable[] = [];
  let table: DumpTable | undefined;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('*')) tables.push((table = { name: line.slice(1), chains: [] }));
    else if (line === 'COMMIT') table = undefined;
    else if (!table) throw new Error(`line outside a table: ${line}`);
    else if (line.startsWith(':'))
      table.chains.push({ name: line.slice(1).split(' ')[0] ?? '', rules: [] });
    else {
      const name = /^-A (\S+)/.exec(line)?.[1];
      const chain = table.chains.find((c) => c.name === name);
      if (!chain) throw new Error(`rule for an undeclared chain: ${line}`);
      chain.rules.push(line);
    }
  }
  return tables;
}

/** The `--comment` value of a rule, unquoted. */
function commentOf(rule: string): string | undefined {
  const m = /--comment (?:"([^"]*)"|(\S+))/.exec(rule);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** `orderByCommentServiceName`: the service name is the comment up to the first space or colon. */
function byServiceName(a: string, b: string): number {
  const ca = commentOf(a);
  const cb = commentOf(b);
  if (ca === undefined || cb === undefined) return 0;
  const na = ca.split(/[ :]/)[0] ?? '';
  const nb = cb.split(/[ :]/)[0] ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

const isLast = (rule: string) => commentOf(rule)?.includes('must be the last rule') ?? false;

/** Chain order of `sortIPTablesRules`: KUBE-NODEPORTS, KUBE-SERVICES, other KUBE-*, the rest. */
function chainRank(name: string): [number, string] {
  if (name === 'KUBE-NODEPORTS') return [0, ''];
  if (name === 'KUBE-SERVICES') return [1, ''];
  return [name.startsWith('KUBE-') ? 2 : 3, name];
}

/**
 * kube-proxy's `sortIPTablesRules` (proxier_test.go): tables by name; chains KUBE-NODEPORTS,
 * KUBE-SERVICES, then by name; the rules of KUBE-NODEPORTS and KUBE-SERVICES stably by the
 * service name in their comment (nat KUBE-SERVICES keeps its "must be the last rule" last);
 * every other chain keeps its order. Printed back as `dump.String()` prints it.
 */
function sortIPTablesRules(text: string): string {
  const out: string[] = [];
  const tables = parseDump(text).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const t of tables) {
    const chains = [...t.chains].sort((a, b) => {
      const [ra, na] = chainRank(a.name);
      const [rb, nb] = chainRank(b.name);
      return ra !== rb ? ra - rb : na < nb ? -1 : na > nb ? 1 : 0;
    });
    for (const c of chains) {
      if (c.name === 'KUBE-NODEPORTS') c.rules.sort(byServiceName);
      if (c.name === 'KUBE-SERVICES')
        c.rules.sort((a, b) =>
          isLast(a) ? (isLast(b) ? 0 : 1) : isLast(b) ? -1 : byServiceName(a, b),
        );
    }
    out.push(`*${t.name}`, ...chains.map((c) => `:${c.name} - [0:0]`));
    out.push(...chains.flatMap((c) => c.rules), 'COMMIT');
  }
  return `${out.join('\n')}\n`;
}

describe.each(PROXIER_TESTS)('$name (kube-proxy proxier_test.go)', (t) => {
  const rs = generateIptables(resolveCluster(t.objects), TEST_HOSTNAME, t.options);

  it('the restore payload equals the expected dump, both normalised by sortIPTablesRules', () => {
    expect(sortIPTablesRules(formatRestore(rs))).toBe(sortIPTablesRules(fixture(t.fixture)));
  });

  it('the expected dump is already in sortIPTablesRules order', () => {
    // assertIPTablesRulesEqual sorts only the result, so the test's text is sorted already.
    const lines = fixture(t.fixture)
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    expect(sortIPTablesRules(fixture(t.fixture))).toBe(`${lines.join('\n')}\n`);
  });
});

describe('TestSyncProxyRulesLargeClusterMode (kube-proxy proxier_test.go)', () => {
  // `countEndpointsAndComments`: the KUBE-SEP- DNAT rules, how many carry a comment, and the
  // one for a given address.
  const count = (withSvc3: boolean, match: string) => {
    const text = formatRestore(
      generateIptables(resolveCluster(largeClusterObjects(withSvc3)), TEST_HOSTNAME, NEW_FAKE),
    );
    const dnat = text
      .split('\n')
      .filter((l) => l.startsWith('-A KUBE-SEP-') && l.includes('-j DNAT'));
    return {
      matched: dnat.filter((l) => l.includes(match)).at(-1),
      endpoints: dnat.length,
      comments: dnat.filter((l) => l.includes('--comment')).length,
    };
  };

  it('998 endpoints: below the threshold, every endpoint rule keeps its comment', () => {
    expect(count(false, '10.0.0.0')).toEqual({
      matched:
        '-A KUBE-SEP-DKGQUZGBKLTPAR56 -m comment --comment ns1/svc1:p80 -m tcp -p tcp -j DNAT --to-destination 10.0.0.0:80',
      endpoints: 998,
      comments: 998,
    });
  });

  it('1001 endpoints (full resync): no endpoint rule has a comment', () => {
    expect(count(true, '10.0.0.0')).toEqual({
      matched: '-A KUBE-SEP-DKGQUZGBKLTPAR56 -m tcp -p tcp -j DNAT --to-destination 10.0.0.0:80',
      endpoints: 1001,
      comments: 0,
    });
    expect(count(true, '203.0.113.4').matched).toBe(
      '-A KUBE-SEP-RUVVH7YV3PHQBDOS -m tcp -p tcp -j DNAT --to-destination 203.0.113.4:8081',
    );
  });
});

describe('TestLoadBalancerIngressRouteTypeProxy (kube-proxy proxier_test.go)', () => {
  // The LoadBalancerIPMode-enabled cases: `expectedRule` is whether nat KUBE-SERVICES has a
  // rule whose destination is the load-balancer IP.
  it.each([
    ['ipMode Proxy', '10.20.30.41', '1.2.3.4', 'Proxy', false],
    ['ipMode VIP', '10.20.30.42', '1.2.3.5', 'VIP', true],
    ['ipMode nil', '10.20.30.43', '1.2.3.6', undefined, true],
  ] as const)('LoadBalancerIPMode enabled, %s', (_, svcIP, lbIP, ipMode, expectedRule) => {
    const rs = generateIptables(
      resolveCluster(ipModeObjects(svcIP, lbIP, ipMode)),
      TEST_HOSTNAME,
      NEW_FAKE,
    );
    const services = rs.tables.nat.find((c) => c.name === 'KUBE-SERVICES')?.rules ?? [];
    const ruleExists = services.some((r) =>
      r.matches.some((m) => m.kind === 'dst' && !m.not && m.cidr === lbIP),
    );
    expect(ruleExists).toBe(expectedRule);
  });
});

describe('endpointSet (EndpointSliceCache.addEndpoints)', () => {
  it('keeps one endpoint per ip:port when two slices list the same address', () => {
    const objects = objectsOf('TestOverallIPTablesRules').flatMap((o) =>
      o.kind === 'EndpointSlice' && o.metadata?.name === 'svc1-1'
        ? [o, { ...o, metadata: { ...o.metadata, name: 'svc1-2' } }]
        : [o],
    );
    const rs = generateIptables(resolveCluster(objects), TEST_HOSTNAME, NEW_FAKE);
    const svc = rs.tables.nat.find((c) => c.name === 'KUBE-SVC-XPGD46QRK7WJZT7O');
    expect(svc?.rules.map((r) => r.restore)).toEqual([
      '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ',
      '-A KUBE-SVC-XPGD46QRK7WJZT7O -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j KUBE-SEP-SXIVWICOYRO3J4NJ',
    ]);
  });

  it('a terminating duplicate does not replace a live endpoint; a live one replaces it', () => {
    const live = { ip: '10.0.0.1', port: 80, nodeName: '', podName: '' };
    const ready = { ...live, ready: true, serving: true, terminating: false };
    const ending = { ...live, ready: false, serving: true, terminating: true };
    expect(endpointSet([ready, ending])).toEqual([ready]);
    expect(endpointSet([ending, ready])).toEqual([ready]);
  });
});

describe('formatRestore', () => {
  const overall = resolveCluster(objectsOf('TestOverallIPTablesRules'));
  const text = formatRestore(generateIptables(overall, TEST_HOSTNAME));

  it('declares only kube-proxy chains: no built-ins, no jumps into them, no canary', () => {
    expect(text).not.toMatch(/^:(INPUT|FORWARD|OUTPUT|PREROUTING|POSTROUTING) /m);
    expect(text).not.toMatch(/^-A (INPUT|FORWARD|OUTPUT|PREROUTING|POSTROUTING) /m);
    expect(text).not.toContain('KUBE-PROXY-CANARY');
  });

  it('starts each table with kube-proxy top-level chains in the order it writes them', () => {
    const tables = text.split('COMMIT\n');
    expect(tables[0]?.split('\n').slice(0, 7)).toEqual([
      '*filter',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-EXTERNAL-SERVICES - [0:0]',
      ':KUBE-FORWARD - [0:0]',
      ':KUBE-NODEPORTS - [0:0]',
      ':KUBE-PROXY-FIREWALL - [0:0]',
      ':KUBE-FIREWALL - [0:0]',
    ]);
    expect(tables[1]?.split('\n').slice(0, 5)).toEqual([
      '*nat',
      ':KUBE-SERVICES - [0:0]',
      ':KUBE-NODEPORTS - [0:0]',
      ':KUBE-POSTROUTING - [0:0]',
      ':KUBE-MARK-MASQ - [0:0]',
    ]);
  });

  it("writes a real kube-proxy's defaults: mark %#08x, --random-fully", () => {
    expect(text).toContain('-A KUBE-MARK-MASQ -j MARK --or-mark 0x00004000\n');
    expect(text).toContain('-A KUBE-POSTROUTING -m mark ! --mark 0x00004000/0x00004000 -j RETURN');
    expect(text).toContain('-j MASQUERADE --random-fully\n');
  });

  it('leaves KUBE-FIREWALL out when kube-proxy writes no rule into it', () => {
    const local = resolveCluster(objectsOf('TestOnlyLocalNodePorts'));
    expect(formatRestore(generateIptables(local, TEST_HOSTNAME))).not.toContain('KUBE-FIREWALL');
  });

  it('drops the INVALID rule when nf_conntrack_tcp_be_liberal is set (TestDropInvalidRule)', () => {
    const r = generateIptables(overall, TEST_HOSTNAME, { conntrackTCPLiberal: true });
    expect(
      r.tables.filter.find((c) => c.name === 'KUBE-FORWARD')?.rules.map((x) => x.restore),
    ).toEqual([
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x00004000/0x00004000 -j ACCEPT',
      '-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
    ]);
  });
});

describe('restoreText', () => {
  it('prints the matches in the order given, addresses as given', () => {
    expect(
      restoreText(
        'KUBE-SVC-X',
        [
          { kind: 'comment', text: 'ns1/svc1:p80 cluster IP' },
          { kind: 'proto', proto: 'tcp' },
          { kind: 'dst', cidr: '172.30.0.41', not: false },
          { kind: 'dport', port: 80 },
          { kind: 'src', cidr: '10.0.0.0/8', not: true },
        ],
        { kind: 'jump', chain: 'KUBE-MARK-MASQ' },
      ),
    ).toBe(
      '-A KUBE-SVC-X -m comment --comment "ns1/svc1:p80 cluster IP" -m tcp -p tcp -d 172.30.0.41 --dport 80 ! -s 10.0.0.0/8 -j KUBE-MARK-MASQ',
    );
  });

  it('REJECT is bare; a rule without a target ends after its matches', () => {
    expect(restoreText('C', [], { kind: 'REJECT' })).toBe('-A C -j REJECT');
    expect(restoreText('C', [{ kind: 'comment', text: 'x y' }], { kind: 'none' })).toBe(
      '-A C -m comment --comment "x y"',
    );
  });
});

describe('computeProbability (TestComputeProbability)', () => {
  // kube-proxy's expectedProbabilities for `fmt.Sprintf("%0.10f", 1.0/float64(n))`.
  it.each([
    [1, '1.0000000000'],
    [2, '0.5000000000'],
    [10, '0.1000000000'],
    [100, '0.0100000000'],
    [1000, '0.0010000000'],
    [10000, '0.0001000000'],
    [100000, '0.0000100000'],
    [100001, '0.0000099999'],
  ])('n = %i → %s', (n, want) => {
    expect(formatWrittenProbability(1 / n)).toBe(want);
  });

  it('rounds an exact tie to even as Go does (1/2048 = 0.00048828125)', () => {
    expect(formatWrittenProbability(1 / 2048)).toBe('0.0004882812');
    expect((1 / 2048).toFixed(10)).toBe('0.0004882813');
  });

  it('decreases strictly from n = 2 to 100000, as the kube-proxy test checks', () => {
    let prev = 0;
    const notIncreasing: number[] = [];
    for (let n = 100000; n > 1; n--) {
      const p = Number(formatWrittenProbability(1 / n));
      if (p <= prev) notIncreasing.push(n);
      prev = p;
    }
    expect(notIncreasing).toEqual([]);
  });
});
