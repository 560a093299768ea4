/**
 * The Go-compatible address parsing behind the IP and CIDR checks: Go 1.16 `net.ParseIP` /
 * `net.ParseCIDR` as forked into k8s.io/utils/net (`ParseIPSloppy`, `ParseCIDRSloppy`), and
 * `net.IP`'s IsUnspecified/IsLoopback/IsLinkLocalUnicast/IsLinkLocalMulticast.
 */
import { describe, expect, it } from 'vitest';
import { isCIDR, isV4, parseIP, specialIPDetails } from './ip';

describe('parseIP (ParseIPSloppy)', () => {
  it.each([
    '1.2.3.4',
    '001.002.003.004', // sloppy: leading zeros are decimal
    '0.0.0.0',
    '::',
    '::1',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7::',
    '::ffff:1.2.3.4',
    '64:ff9b::192.0.2.33',
    'FD00::ABCD',
  ])('accepts %s', (s) => expect(parseIP(s)).toBeDefined());

  it.each([
    '',
    'abc',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.4 ',
    '1.2.3.',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7:8::',
    '1::2::3',
    ':1::',
    '12345::',
    'fe80::1%eth0',
    '1.2.3.4::',
    '1:2:3:4:5:6:1.2.3.4:5',
    '::g',
  ])('rejects %j', (s) => expect(parseIP(s)).toBeUndefined());

  it('holds IPv4 as IPv4-mapped IPv6, as net.IP does', () => {
    expect(parseIP('10.0.0.1')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 10, 0, 0, 1]);
    expect(parseIP('1::2')).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    expect(isV4(parseIP('::ffff:10.0.0.1')!)).toBe(true);
    expect(isV4(parseIP('::10.0.0.1')!)).toBe(false);
  });
});

describe('isCIDR (ParseCIDRSloppy)', () => {
  it.each(['10.0.0.0/8', '10.0.0.1/32', '0.0.0.0/0', '::/0', 'fd00::/128', '10.0.0.0/08'])(
    'accepts %s',
    (s) => expect(isCIDR(s)).toBe(true),
  );
  it.each(['10.0.0.0', '10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/8 ', '10.0.0/8', '/8'])(
    'rejects %j',
    (s) => expect(isCIDR(s)).toBe(false),
  );
});

describe('specialIPDetails (ValidateEndpointIP)', () => {
  const details = (s: string): string[] => specialIPDetails(s, parseIP(s)!);
  it('names the special ranges', () => {
    expect(details('0.0.0.0')).toEqual(['may not be unspecified (0.0.0.0)']);
    expect(details('::')).toEqual(['may not be unspecified (::)']);
    const loopback = ['may not be in the loopback range (127.0.0.0/8, ::1/128)'];
    expect(details('127.1.2.3')).toEqual(loopback);
    expect(details('::1')).toEqual(loopback);
    expect(details('::ffff:127.0.0.1')).toEqual(loopback);
    const linkLocal = ['may not be in the link-local range (169.254.0.0/16, fe80::/10)'];
    expect(details('169.254.169.254')).toEqual(linkLocal);
    expect(details('febf::1')).toEqual(linkLocal);
    const llm = ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'];
    expect(details('224.0.0.251')).toEqual(llm);
    expect(details('ff02::fb')).toEqual(llm);
  });
  it('has nothing to say about ordinary addresses', () => {
    for (const s of ['10.244.1.5', '203.0.113.7', 'fd00::1', '224.0.1.1', 'fec0::1']) {
      expect(details(s)).toEqual([]);
    }
  });
});
