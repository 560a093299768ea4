import { describe, it, expect } from 'vitest';
import { endpointChainName, portProtoHash, serviceChainNames } from './hash';

// Source: kube-proxy pkg/proxy/iptables/proxier.go `portProtoHash` and
// `servicePortEndpointChainName` (danwinship/kubernetes@07c76c3a): base32.StdEncoding of
// sha256(servicePortName + protocol [+ endpoint]), first 16 characters. Expected values are
// the ones kube-proxy's own proxier_test.go expects, recomputed in
// shared/reference/kube-proxy.md §1.1 "Checks".
describe('portProtoHash (KUBE-SVC/SVL/EXT/FW suffix)', () => {
  it.each([
    ['ns1/svc1:p80', 'tcp', 'XPGD46QRK7WJZT7O'],
    ['ns2/svc2:p80', 'tcp', 'GNZBNJ2PO5MGZ6GT'],
    // An unnamed port: ServicePortName.String() is `ns/name`, no colon.
    ['ns1/svc1', 'tcp', 'AQI2S6QIMU7PVVRP'],
    // The canonical scenario (reference §1.1 worked example).
    ['default/web:http', 'tcp', 'CDGGSHYLG3RE2FKL'],
  ])('%s %s → %s', (name, proto, hash) => {
    expect(portProtoHash(name, proto)).toBe(hash);
  });

  it('is 16 characters of the RFC 4648 base32 alphabet', () => {
    for (const name of ['a/b', 'default/web:http', 'kube-system/kube-dns:dns-tcp'])
      for (const proto of ['tcp', 'udp', 'sctp'])
        expect(portProtoHash(name, proto)).toMatch(/^[A-Z2-7]{16}$/);
  });

  it('depends on the protocol (the input is servicePortName + protocol)', () => {
    expect(portProtoHash('ns1/svc1:p80', 'udp')).not.toBe(portProtoHash('ns1/svc1:p80', 'tcp'));
  });
});

describe('serviceChainNames', () => {
  // proxier.go: servicePortPolicyClusterChain / servicePortPolicyLocalChainName /
  // serviceExternalChainName / serviceFirewallChainName all share portProtoHash.
  it('gives the four service-level chains one shared suffix', () => {
    expect(serviceChainNames('default/web:http', 'tcp')).toEqual({
      svc: 'KUBE-SVC-CDGGSHYLG3RE2FKL',
      svl: 'KUBE-SVL-CDGGSHYLG3RE2FKL',
      ext: 'KUBE-EXT-CDGGSHYLG3RE2FKL',
      fw: 'KUBE-FW-CDGGSHYLG3RE2FKL',
    });
    expect(serviceChainNames('ns1/svc1:p80', 'tcp').svc).toBe('KUBE-SVC-XPGD46QRK7WJZT7O');
  });

  it('keeps every name within the 28-character iptables chain-name limit', () => {
    for (const n of Object.values(serviceChainNames('default/web:http', 'tcp')))
      expect(n.length).toBeLessThanOrEqual(28);
  });
});

describe('endpointChainName (KUBE-SEP-)', () => {
  it.each([
    // proxier_test.go expectations (reference §1.1 "Checks").
    ['ns1/svc1:p80', 'tcp', '10.180.0.1:80', 'KUBE-SEP-SXIVWICOYRO3J4NJ'],
    ['ns5/svc5:p80', 'tcp', '10.180.0.3:80', 'KUBE-SEP-I77PXRDZVX7PMWMN'],
    // The canonical scenario (reference §1.1 worked example).
    ['default/web:http', 'tcp', '10.244.1.5:8080', 'KUBE-SEP-AFGSLHOD2HFNCBX4'],
    ['default/web:http', 'tcp', '10.244.2.7:8080', 'KUBE-SEP-2RIJ5GIYXEFH6G4D'],
    ['default/web:http', 'tcp', '10.244.3.9:8080', 'KUBE-SEP-RBX5X5TOEG5GD3RO'],
  ])('%s %s %s → %s', (name, proto, ep, chain) => {
    expect(endpointChainName(name, proto, ep)).toBe(chain);
  });

  it('uses the endpoint (target) port, not the service port', () => {
    expect(endpointChainName('default/web:http', 'tcp', '10.244.1.5:80')).not.toBe(
      'KUBE-SEP-AFGSLHOD2HFNCBX4',
    );
  });
});
