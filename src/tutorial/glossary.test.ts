import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { findGlossaryEntry, glossaryMatcher, isCaseSensitive, parseGlossary } from './glossary';

const GLOSSARY = `- term: Pod
  aliases: [Pods]
  definition: The smallest unit that runs containers.
- term: DNAT
  definition: Destination NAT.
- term: SNAT
  aliases: [masquerade]
  definition: Source NAT.
- term: NodePort
  definition: A port opened on every node.
- term: node
  aliases: [nodes]
  definition: A machine in the cluster.
- term: externalTrafficPolicy
  definition: Cluster or Local.
- term: cloud load balancer
  definition: The cloud's balancer.
- term: load balancer
  definition: Anything that balances.
`;

describe('parseGlossary', () => {
  it('reads entries with ids from github-slugger', () => {
    const g = parseGlossary(GLOSSARY);
    expect(g.problems).toEqual([]);
    expect(g.entries[0]).toEqual({
      id: 'pod',
      term: 'Pod',
      aliases: ['Pods'],
      definition: 'The smallest unit that runs containers.',
      line: 1,
    });
    expect(g.entries.map((e) => e.id)).toContain('cloud-load-balancer');
  });

  it('reports duplicates case-insensitively, bad fields, with lines', () => {
    const text = `- term: Pod
  definition: D
- term: pod
  definition: D
- term: Node
  aliases: [POD, ""]
  definition: D
- term: X
  defintion: D
- aliases: [y]
  definition: D
`;
    expect(parseGlossary(text).problems.map(formatProblem)).toEqual([
      'content/glossary.yaml:3: pod: id "pod" is already used by "Pod"',
      'content/glossary.yaml:3: "pod" is already a term or alias of "Pod"',
      'content/glossary.yaml:6: Node: aliases must be a list of non-empty strings',
      'content/glossary.yaml:9: unknown field "defintion" (fields: term, aliases, definition)',
      'content/glossary.yaml:8: X: definition must be a non-empty string',
      'content/glossary.yaml:10: entry 5: term must be a non-empty string',
    ]);
    expect(
      parseGlossary(
        '- term: Node\n  aliases: [POD]\n  definition: D\n- term: Pod\n  definition: D',
      ).problems.map(formatProblem),
    ).toEqual(['content/glossary.yaml:4: "Pod" is already a term or alias of "Node"']);
    expect(parseGlossary('term: Pod').problems.map(formatProblem)).toEqual([
      'content/glossary.yaml:1: the glossary must be a list of { term, aliases?, definition }',
    ]);
  });
});

describe('isCaseSensitive', () => {
  it('all-caps and code-like names are exact', () => {
    expect(isCaseSensitive('DNAT')).toBe(true);
    expect(isCaseSensitive('SNAT')).toBe(true);
    expect(isCaseSensitive('ClusterIP')).toBe(true);
    expect(isCaseSensitive('NodePort')).toBe(true);
    expect(isCaseSensitive('externalTrafficPolicy')).toBe(true);
    expect(isCaseSensitive('status.loadBalancer')).toBe(true);
    expect(isCaseSensitive('Pod')).toBe(false);
    expect(isCaseSensitive('kube-proxy')).toBe(false);
    expect(isCaseSensitive('cloud load balancer')).toBe(false);
  });
});

describe('glossaryMatcher', () => {
  const m = glossaryMatcher(parseGlossary(GLOSSARY).entries);
  const found = (text: string) => m.find(text).map((x) => `${x.id}:${x.text}`);
  it('matches whole words, longest first, without overlaps', () => {
    expect(found('The cloud load balancer picks a node; a load balancer balances.')).toEqual([
      'cloud-load-balancer:cloud load balancer',
      'node:node',
      'load-balancer:load balancer',
    ]);
    // A capitalised term keeps its capital (Kubernetes writes the kind as "Pod"); a lower-case
    // one matches either case.
    expect(found('Pods on nodes, a pod on a Node.')).toEqual([
      'pod:Pods',
      'node:nodes',
      'node:Node',
    ]);
    // Not inside a hyphenated name: "node-1" is a node's name, not the term "node".
    expect(found('node-1 and pod-x, then a node.')).toEqual(['node:node']);
    // Not inside a longer word: "NodePorts" is not "NodePort", "nodeName" not "node".
    expect(found('nodeName, NodePorts, podCIDR')).toEqual([]);
  });
  it('is case-sensitive for all-caps and code-like terms', () => {
    expect(found('DNAT, then SNAT; dnat and snat are not the terms.')).toEqual([
      'dnat:DNAT',
      'snat:SNAT',
    ]);
    expect(found('a NodePort, a nodeport, a Nodeport')).toEqual(['nodeport:NodePort']);
    expect(found('Set externalTrafficPolicy, not ExternalTrafficPolicy.')).toEqual([
      'externaltrafficpolicy:externalTrafficPolicy',
    ]);
    expect(found('They Masquerade it.')).toEqual(['snat:Masquerade']);
  });
  it('does not take a capitalised product name for a lower-case term of several words', () => {
    // "load balancer" is the generic term; "Network Load Balancer" and "AWS Load Balancer
    // Controller" are products. A sentence may still start with it.
    expect(found('A Network Load Balancer, the AWS Load Balancer Controller.')).toEqual([]);
    expect(found('Load balancer health checks: a load balancer.')).toEqual([
      'load-balancer:Load balancer',
      'load-balancer:load balancer',
    ]);
  });
  it('finds a term in code only when the code is exactly the term or spec.<term>', () => {
    expect(m.code('externalTrafficPolicy')).toBe('externaltrafficpolicy');
    expect(m.code('spec.externalTrafficPolicy')).toBe('externaltrafficpolicy');
    expect(m.code('.spec.externalTrafficPolicy')).toBe('externaltrafficpolicy');
    expect(m.code('masquerade')).toBe('snat');
    expect(m.code('externalTrafficPolicy: Local')).toBeUndefined();
    expect(m.code('ExternalTrafficPolicy')).toBeUndefined();
    expect(m.code('spec.')).toBeUndefined();
  });
  it('gives offsets into the text', () => {
    expect(m.find('a DNAT')).toEqual([{ id: 'dnat', index: 2, length: 4, text: 'DNAT' }]);
  });
  it('an empty glossary matches nothing', () => {
    expect(glossaryMatcher([]).find('Pod')).toEqual([]);
  });
});

describe('findGlossaryEntry', () => {
  const entries = parseGlossary(GLOSSARY).entries;
  const find = (name: string | undefined) => findGlossaryEntry(entries, name)?.id;
  it('finds a term by id, by its own spelling in any case, or by an alias', () => {
    expect(find('externaltrafficpolicy')).toBe('externaltrafficpolicy');
    expect(find('externalTrafficPolicy')).toBe('externaltrafficpolicy');
    expect(find('ExternalTrafficPolicy')).toBe('externaltrafficpolicy');
    expect(find('Cloud Load Balancer')).toBe('cloud-load-balancer');
    expect(find('masquerade')).toBe('snat');
    expect(find('Pods')).toBe('pod');
  });
  it('finds nothing for an unknown or empty name', () => {
    expect(find('nope')).toBeUndefined();
    expect(find('')).toBeUndefined();
    expect(find(undefined)).toBeUndefined();
  });
});
