import { describe, it, expect } from 'vitest';
import { endpointNames, hashAndTruncate, serviceChainNames } from './hash';

// Expected values are the names kube-proxy's own test expects:
// kubernetes/kubernetes pkg/proxy/nftables/proxier_test.go, TestOverallNFTablesRules, read at
// aroradaman/kubernetes@4177b600d4b97a67b765a18ddeeb295ef757b212, and the doc comments of
// servicePortChainNameBase / servicePortEndpointChainNameBase in proxier.go
// ("ULMVA6XW-ns1/svc1/tcp/p80", "5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80").
describe('hashAndTruncate', () => {
  it.each([
    ['ns1/svc1/tcp/p80', 'ULMVA6XW-ns1/svc1/tcp/p80'],
    ['ns2/svc2/tcp/p80', '42NFTM6N-ns2/svc2/tcp/p80'],
    ['ns3/svc3/tcp/p80', '4AT6LBPK-ns3/svc3/tcp/p80'],
    ['ns4/svc4/tcp/p80', 'LAUZTJTB-ns4/svc4/tcp/p80'],
    ['ns5/svc5/tcp/p80', 'HVFWP5L3-ns5/svc5/tcp/p80'],
    ['ns1/svc1/tcp/p80__10.180.0.1/80', '5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80'],
    ['ns4/svc4/tcp/p80__10.180.0.4/80', 'UNZV3OEC-ns4/svc4/tcp/p80__10.180.0.4/80'],
    ['ns4/svc4/tcp/p80__10.180.0.5/80', '5RFCDDV7-ns4/svc4/tcp/p80__10.180.0.5/80'],
    ['ns5/svc5/tcp/p80__10.180.0.3/80', 'GTK6MW7G-ns5/svc5/tcp/p80__10.180.0.3/80'],
    // The canonical scenario (shared/reference/kube-proxy.md §3.1 worked example).
    ['default/web/tcp/http', 'SUSTUHLJ-default/web/tcp/http'],
  ])('%s → %s', (name, expected) => {
    expect(hashAndTruncate(name)).toBe(expected);
  });

  it('truncates to 240 characters ending in "..." (chainNameBaseLengthMax)', () => {
    const long = `${'n'.repeat(63)}/${'s'.repeat(63)}/tcp/${'p'.repeat(63)}__10.0.0.1/${'9'.repeat(60)}`;
    const out = hashAndTruncate(long);
    expect(out).toHaveLength(240);
    expect(out.endsWith('...')).toBe(true);
    expect(out.slice(0, 9)).toMatch(/^[A-Z2-7]{8}-$/);
  });
});

describe('chain names', () => {
  it('service-, local-, external-, firewall- share one base', () => {
    expect(serviceChainNames('default', 'web', 'tcp', 'http')).toEqual({
      service: 'service-SUSTUHLJ-default/web/tcp/http',
      local: 'local-SUSTUHLJ-default/web/tcp/http',
      external: 'external-SUSTUHLJ-default/web/tcp/http',
      firewall: 'firewall-SUSTUHLJ-default/web/tcp/http',
    });
  });

  it('endpoint- chain and affinity- set share the endpoint base (target port)', () => {
    expect(endpointNames('ns1', 'svc1', 'tcp', 'p80', '10.180.0.1', 80)).toEqual({
      chain: 'endpoint-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80',
      affinitySet: 'affinity-5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80',
    });
    expect(endpointNames('default', 'web', 'tcp', 'http', '10.244.1.5', 8080).chain).toBe(
      'endpoint-HGNPOIJ5-default/web/tcp/http__10.244.1.5/8080',
    );
  });

  it('an unnamed port leaves a trailing slash (fmt "%s/%s/%s/%s")', () => {
    expect(serviceChainNames('ns1', 'svc1', 'tcp', '').service).toMatch(
      /^service-[A-Z2-7]{8}-ns1\/svc1\/tcp\/$/,
    );
  });
});
