/**
 * How `nft list` prints what kube-proxy wrote. Every expectation here is what nft 1.0.6
 * (Debian 12, x86-64) printed for the given `nft -f` input, loaded in a private network
 * namespace; the inputs are quoted next to each case.
 */
import { describe, it, expect } from 'vitest';
import { durationText, priorityText, ruleText, tableLines } from './format';
import type { NftChain, NftMap, NftMapElement, NftSet } from './types';

const goto = (chain: string) => ({ kind: 'goto', chain }) as const;
const listing = (sets: (NftSet | NftMap)[], chains: NftChain[] = []) =>
  tableLines({ tableComment: 'c', sets, chains }).map((l) => l.text);

describe('elements are sorted as nft sorts them', () => {
  it('concatenated keys: by their bytes read as one little-endian number', () => {
    // add element ip t m { 10.0.0.1 . tcp . 80 : goto a } … (one add per element, in this order)
    const el = (ip: string, proto: 'tcp' | 'udp', port: number): NftMapElement => ({
      ip,
      proto,
      port,
      verdict: goto('a'),
    });
    const m: NftMap = {
      kind: 'map',
      name: 'm',
      key: 'daddr.l4proto.dport',
      comment: 'x',
      elements: [
        el('10.0.0.1', 'tcp', 80),
        el('10.0.0.1', 'tcp', 256),
        el('10.0.0.2', 'tcp', 80),
        el('10.0.0.1', 'udp', 80),
        el('9.0.0.1', 'tcp', 80),
        el('203.0.113.7', 'tcp', 80),
        el('10.96.0.50', 'tcp', 80),
      ],
    };
    expect(listing([m]).slice(2, 14)).toEqual([
      '\tmap m {',
      '\t\ttype ipv4_addr . inet_proto . inet_service : verdict',
      '\t\tcomment "x"',
      '\t\telements = { 10.0.0.1 . tcp . 256 : goto a,',
      '\t\t\t     9.0.0.1 . tcp . 80 : goto a,',
      '\t\t\t     10.0.0.1 . tcp . 80 : goto a,',
      '\t\t\t     10.0.0.2 . tcp . 80 : goto a,',
      '\t\t\t     203.0.113.7 . tcp . 80 : goto a,',
      '\t\t\t     10.96.0.50 . tcp . 80 : goto a,',
      '\t\t\t     10.0.0.1 . udp . 80 : goto a }',
      '\t}',
      '}',
    ]);
  });

  it('protocol . port keys, with a drop verdict and a comment', () => {
    // add element ip t n { tcp . 31000 : goto a, tcp . 80 : goto a, udp . 80 : goto a,
    //   tcp . 256 : goto a, sctp . 80 : drop }
    const n: NftMap = {
      kind: 'map',
      name: 'n',
      key: 'l4proto.dport',
      elements: [
        { proto: 'tcp', port: 31000, verdict: goto('a') },
        { proto: 'tcp', port: 80, verdict: goto('a') },
        { proto: 'udp', port: 80, verdict: goto('a') },
        { proto: 'tcp', port: 256, verdict: goto('a') },
        { proto: 'sctp', port: 80, comment: 'ns/s:p', verdict: { kind: 'drop' } },
      ],
    };
    expect(listing([n]).slice(4, 9)).toEqual([
      '\t\telements = { tcp . 256 : goto a,',
      '\t\t\t     tcp . 31000 : goto a,',
      '\t\t\t     tcp . 80 : goto a,',
      '\t\t\t     udp . 80 : goto a,',
      '\t\t\t     sctp . 80 comment "ns/s:p" : drop }',
    ]);
  });

  it('IPv4 sets: by address, two per line', () => {
    // add element ip t cluster-ips { 10.96.0.50, 9.1.1.1, 192.168.0.1, 10.0.0.1, 10.0.0.2 }
    const s: NftSet = {
      kind: 'set',
      name: 'cluster-ips',
      comment: 'Active ClusterIPs',
      elements: ['10.96.0.50', '9.1.1.1', '192.168.0.1', '10.0.0.1', '10.0.0.2'],
    };
    expect(listing([s]).slice(2, 10)).toEqual([
      '\tset cluster-ips {',
      '\t\ttype ipv4_addr',
      '\t\tcomment "Active ClusterIPs"',
      '\t\telements = { 9.1.1.1, 10.0.0.1,',
      '\t\t\t     10.0.0.2, 10.96.0.50,',
      '\t\t\t     192.168.0.1 }',
      '\t}',
      '}',
    ]);
  });

  it('an empty map prints no elements line; blocks are separated by one blank line', () => {
    const empty: NftMap = { kind: 'map', name: 'e', key: 'l4proto.dport', elements: [] };
    const chain: NftChain = { name: 'empty', rules: [] };
    expect(listing([empty], [chain])).toEqual([
      'table ip kube-proxy {',
      '\tcomment "c"',
      '\tmap e {',
      '\t\ttype inet_proto . inet_service : verdict',
      '\t}',
      '',
      '\tchain empty {',
      '\t}',
      '}',
    ]);
  });
});

describe('rule text', () => {
  it('marks print as meta mark with 8 hex digits', () => {
    // mark set mark or 0x4000 / mark and 0x4000 == 0 return / mark set mark xor 0x4000
    expect(ruleText([], { kind: 'mark', op: 'or', value: 0x4000 })).toBe(
      'meta mark set meta mark | 0x00004000',
    );
    expect(ruleText([{ kind: 'markClear', mask: 0x4000 }], { kind: 'return' })).toBe(
      'meta mark & 0x00004000 == 0x00000000 return',
    );
    expect(ruleText([], { kind: 'mark', op: 'xor', value: 0x4000 })).toBe(
      'meta mark set meta mark ^ 0x00004000',
    );
  });

  it('anonymous address sets: one element loses its braces; more are sorted and merged', () => {
    const drop = { kind: 'drop' } as const;
    // ip daddr { 172.30.0.0/16 } drop
    expect(
      ruleText([{ kind: 'addr', dir: 'daddr', not: false, cidrs: ['172.30.0.0/16'] }], drop),
    ).toBe('ip daddr 172.30.0.0/16 drop');
    // ip saddr != { 203.0.113.0/25, 192.168.0.0/24, 1.2.3.4 } drop
    const three = ['203.0.113.0/25', '192.168.0.0/24', '1.2.3.4'];
    expect(ruleText([{ kind: 'addr', dir: 'saddr', not: true, cidrs: three }], drop)).toBe(
      'ip saddr != { 1.2.3.4, 192.168.0.0/24, 203.0.113.0/25 } drop',
    );
    // ip daddr { 10.96.0.0/12, 10.100.0.0/16 } drop → the /16 lies inside the /12
    const nested = ['10.96.0.0/12', '10.100.0.0/16'];
    expect(ruleText([{ kind: 'addr', dir: 'daddr', not: false, cidrs: nested }], drop)).toBe(
      'ip daddr { 10.96.0.0/12 } drop',
    );
  });

  it('protocol matches, dnat, comments', () => {
    expect(
      ruleText(
        [
          { kind: 'addr', dir: 'daddr', not: false, cidrs: ['10.96.0.10'] },
          { kind: 'dport', proto: 'udp', port: 53 },
        ],
        { kind: 'jump', chain: 'x' },
      ),
    ).toBe('ip daddr 10.96.0.10 udp dport 53 jump x');
    expect(
      ruleText([{ kind: 'l4proto', proto: 'sctp' }], { kind: 'dnat', to: '10.244.1.5:53' }),
    ).toBe('meta l4proto sctp dnat to 10.244.1.5:53');
    expect(
      ruleText([{ kind: 'fibLocal', dir: 'saddr' }], goto('s'), 'short-circuit local traffic'),
    ).toBe('fib saddr type local goto s comment "short-circuit local traffic"');
  });
});

describe('chain headers and set timeouts', () => {
  it.each([
    ['prerouting', 'filter', -110, 'dstnat - 10'],
    ['input', 'filter', -110, '-110'],
    ['forward', 'filter', -110, '-110'],
    ['output', 'filter', -110, '-110'],
    ['output', 'filter', -90, '-90'],
    ['prerouting', 'nat', -100, 'dstnat'],
    ['output', 'nat', -100, '-100'],
    ['postrouting', 'nat', 100, 'srcnat'],
  ] as const)('%s priority %i (type %s) prints as %s', (hook, type, priority, want) => {
    expect(priorityText({ hook, type, priority })).toBe(want);
  });

  it.each([
    [10800, '3h'],
    [86400, '1d'],
    [3661, '1h1m1s'],
    [10, '10s'],
  ])('timeout %is prints as %s', (s, want) => {
    expect(durationText(s)).toBe(want);
  });
});
