import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, runScene } from '../model/index';
import { diffCounts, diffRuleLines } from './rulesDiff';

describe('diffRuleLines', () => {
  it('Cluster → Local on node-2 (no local endpoint): the DROP rules appear, the masquerade rule goes', () => {
    const cluster = runScene(canonicalObjects(), DEFAULT_SCENE).rules['node-2']?.lines ?? [];
    const local =
      runScene(canonicalObjects(), { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local' }).rules[
        'node-2'
      ]?.lines ?? [];
    const d = diffRuleLines(cluster, local);
    const added = d.filter((l) => l.change === 'added').map((l) => l.text);
    const removed = d.filter((l) => l.change === 'removed').map((l) => l.text);
    // proxier.go: eTP=Local with no local endpoints → DROP in KUBE-EXTERNAL-SERVICES for the
    // LB IP and the NodePort; KUBE-EXT loses the Cluster masquerade rule and its final jump.
    expect(added).toContain(
      '-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/web:http has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport 31000 -j DROP',
    );
    expect(removed).toContain(
      '-A KUBE-EXT-CDGGSHYLG3RE2FKL -m comment --comment "masquerade traffic for default/web:http external destinations" -j KUBE-MARK-MASQ',
    );
    // Every current line is present once, in order.
    expect(d.filter((l) => l.change !== 'removed').map((l) => l.text)).toEqual(
      local.map((l) => l.text),
    );
    expect(diffCounts(d).added).toBe(added.length);
  });

  it('the same rules: nothing changes', () => {
    const a = runScene(canonicalObjects(), DEFAULT_SCENE).rules['node-1']?.lines ?? [];
    expect(diffCounts(diffRuleLines(a, a))).toEqual({ added: 0, removed: 0 });
  });
});
