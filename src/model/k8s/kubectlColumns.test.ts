/**
 * kubectl's EXTERNAL-IP column. The expectations are kubernetes' own: `TestPrintService` in
 * `pkg/printers/internalversion/printers_test.go` (cases test1–test7, External-IP cell), and the
 * rules of `getServiceExternalIP` / `loadBalancerStatusStringer` in `printers.go` for what that
 * test leaves out (hostname-only ingress, sorting and deduplication, the 16-byte clip).
 */
import { describe, expect, it } from 'vitest';
import { externalIPColumn, loadBalancerStatusString } from './kubectlColumns';

const single = ['80.11.12.10'];
const mul = ['80.11.12.10', '80.11.12.11'];
// printers_test.go runs printService with GenerateOptions{} (not wide) unless it says Wide.
const notWide = { wide: false };

describe('externalIPColumn: printers_test.go TestPrintService', () => {
  it('test1: ClusterIP without externalIPs is <none> (wide or not)', () => {
    expect(externalIPColumn({ type: 'ClusterIP' }, notWide)).toBe('<none>');
    expect(externalIPColumn({ type: 'ClusterIP' })).toBe('<none>');
  });

  it('test2: NodePort without externalIPs is <none>', () => {
    expect(externalIPColumn({ type: 'NodePort' }, notWide)).toBe('<none>');
  });

  it('test3: LoadBalancer with an empty status is <pending>', () => {
    expect(externalIPColumn({ type: 'LoadBalancer' }, notWide)).toBe('<pending>');
    expect(externalIPColumn({ type: 'LoadBalancer', ingress: [] })).toBe('<pending>');
  });

  it('test4: LoadBalancer, one externalIP and no status: the externalIP', () => {
    expect(externalIPColumn({ type: 'LoadBalancer', externalIPs: single }, notWide)).toBe(
      '80.11.12.10',
    );
  });

  it('test5: an entry with both ip and hostname shows the IP, then the externalIPs', () => {
    expect(
      externalIPColumn(
        {
          type: 'LoadBalancer',
          externalIPs: single,
          ingress: [{ ip: '3.4.5.6', hostname: 'test.cluster.com' }],
        },
        notWide,
      ),
    ).toBe('3.4.5.6,80.11.12.10');
  });

  it('test6: every ingress IP, then every externalIP', () => {
    expect(
      externalIPColumn(
        {
          type: 'LoadBalancer',
          externalIPs: mul,
          ingress: [
            { ip: '2.3.4.5', hostname: 'test.cluster.local' },
            { ip: '3.4.5.6', hostname: 'test.cluster.com' },
          ],
        },
        notWide,
      ),
    ).toBe('2.3.4.5,3.4.5.6,80.11.12.10,80.11.12.11');
  });

  it('test7: ExternalName shows spec.externalName', () => {
    expect(
      externalIPColumn({ type: 'ExternalName', externalName: 'my.database.example.com' }, notWide),
    ).toBe('my.database.example.com');
  });
});

describe('externalIPColumn: printers.go rules', () => {
  const elb = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6-1234567890.us-east-1.elb.amazonaws.com';

  it('a hostname-only ingress (AWS ELB/NLB) shows the hostname, in full as kubectl get prints it', () => {
    // The API server's table convertor prints wide (pkg/printers/storage/storage.go).
    expect(externalIPColumn({ type: 'LoadBalancer', ingress: [{ hostname: elb }] })).toBe(elb);
  });

  it('not wide, the ingress part is clipped to 13 bytes and "..."', () => {
    expect(externalIPColumn({ type: 'LoadBalancer', ingress: [{ hostname: elb }] }, notWide)).toBe(
      'a1b2c3d4e5f6a...',
    );
    // 16 bytes exactly is not clipped (len(r) > loadBalancerWidth).
    expect(loadBalancerStatusString([{ ip: '203.0.113.7' }, { ip: '10.0.0.1' }], false)).toBe(
      '10.0.0.1,203....',
    );
    expect(loadBalancerStatusString([{ hostname: 'lb16.example.com' }], false)).toBe(
      'lb16.example.com',
    );
  });

  it('the clipped ingress part is split on its commas and the externalIPs follow it', () => {
    expect(
      externalIPColumn(
        { type: 'LoadBalancer', ingress: [{ hostname: elb }], externalIPs: ['192.0.2.10'] },
        notWide,
      ),
    ).toBe('a1b2c3d4e5f6a...,192.0.2.10');
  });

  it('sorts the ingress entries and shows each once (sets.NewString().List())', () => {
    expect(
      externalIPColumn({
        type: 'LoadBalancer',
        ingress: [
          { ip: '203.0.113.9' },
          { hostname: 'lb.example.com' },
          { ip: '203.0.113.10' },
          { ip: '203.0.113.9' },
        ],
      }),
    ).toBe('203.0.113.10,203.0.113.9,lb.example.com');
  });

  it('does not deduplicate an externalIP against the ingress', () => {
    expect(
      externalIPColumn({
        type: 'LoadBalancer',
        ingress: [{ ip: '203.0.113.7' }],
        externalIPs: ['203.0.113.7'],
      }),
    ).toBe('203.0.113.7,203.0.113.7');
  });

  it('ClusterIP and NodePort with externalIPs: the externalIPs as given, never clipped', () => {
    const many = ['192.0.2.10', '192.0.2.11', '192.0.2.12'];
    expect(externalIPColumn({ type: 'ClusterIP', externalIPs: many }, notWide)).toBe(
      '192.0.2.10,192.0.2.11,192.0.2.12',
    );
    expect(externalIPColumn({ type: 'NodePort', externalIPs: ['192.0.2.10'] })).toBe('192.0.2.10');
  });

  it('an entry with neither ip nor hostname adds nothing', () => {
    expect(externalIPColumn({ type: 'LoadBalancer', ingress: [{}] })).toBe('<pending>');
  });
});
