import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { extractBlocks } from './blocks';
import type { Question } from './questions';
import {
  answerQuestion,
  answersBySeed,
  isDeterministic,
  parseQuestion,
  questionOptions,
  unknownOptionNames,
} from './questions';
import { resolveSceneQuery } from './sceneResolve';
import { diskScenarioLoader } from './node';

const loadScenario = diskScenarioLoader(process.cwd());
const result = (scene: string) => {
  const r = resolveSceneQuery(scene, { loadScenario });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.scene.result;
};
const q = (scene: string, ask: Question['ask']): Question => ({
  id: 'q',
  scene,
  ask,
  prompt: 'P?',
});
const answer = (scene: string, ask: Question['ask']) =>
  answerQuestion(q(scene, ask), result(scene));

const POD_1 = 'pod:default/web-6d8f9c7b5-x2k4p'; // 10.244.1.5 on node-1
const POD_3 = 'pod:default/web-6d8f9c7b5-q7m9z'; // 10.244.3.9 on node-3

describe('answerQuestion on the canonical scenario', () => {
  it('Local, balancer on node-1: the client address survives and the local Pod answers', () => {
    // ServiceSpec.externalTrafficPolicy (k8s.io/api core/v1 types.go): with "Local" each node
    // delivers only to node-local endpoints, "without masquerading the client source IP".
    const s = 'policy=Local&lbTarget=node-1';
    expect(answer(s, 'sourceIP')).toBe('ip:198.51.100.23');
    expect(answer(s, 'pod')).toBe(POD_1);
    expect(answer(s, 'node')).toBe('node:node-1');
    expect(answer(s, 'snat')).toBe('no');
    expect(answer(s, 'crossedNodes')).toBe('no');
    expect(answer(s, 'outcome')).toBe('delivered');
  });

  it("Cluster, balancer on node-2, endpoint on node-3: SNAT to node-2's own address", () => {
    // KUBE-EXT marks external traffic for masquerade under Cluster; KUBE-POSTROUTING's
    // MASQUERADE takes the address of the interface the packet leaves by — node-2's
    // InternalIP towards node-3 (shared/reference/kube-proxy.md, "masquerade address").
    const s = 'lbTarget=node-2&endpoint=10.244.3.9:8080';
    expect(answer(s, 'sourceIP')).toBe('ip:192.168.0.12');
    expect(answer(s, 'pod')).toBe(POD_3);
    expect(answer(s, 'node')).toBe('node:node-3');
    expect(answer(s, 'snat')).toBe('yes');
    expect(answer(s, 'crossedNodes')).toBe('yes');
  });

  it('Cluster, balancer on node-1, its local endpoint: still masqueraded, to the cni0 bridge', () => {
    // Cluster masquerades external traffic whatever endpoint is chosen; the packet leaves by
    // node-1's cni0 bridge, whose address is the first host of node-1's podCIDR 10.244.1.0/24.
    const s = 'lbTarget=node-1&endpoint=10.244.1.5:8080';
    expect(answer(s, 'sourceIP')).toBe('ip:10.244.1.1');
    expect(answer(s, 'snat')).toBe('yes');
    expect(answer(s, 'crossedNodes')).toBe('no');
  });

  it('a Pod dialling the ClusterIP keeps its own address', () => {
    // KUBE-SVC-* masquerades only sources outside clusterCIDR (`! -s 10.244.0.0/16`).
    const s = 'client=pod&dial=clusterip&endpoint=10.244.1.5:8080';
    expect(answer(s, 'sourceIP')).toBe('ip:10.244.2.4');
    expect(answer(s, 'snat')).toBe('no');
    expect(answer(s, 'crossedNodes')).toBe('yes');
  });

  it('unpublished status: nothing to dial; questions about the delivery do not apply', () => {
    const s = 'published=false';
    expect(answer(s, 'outcome')).toBe('no-address');
    expect(answer(s, 'pod')).toBe('none');
    expect(answer(s, 'node')).toBe('none');
    expect(answer(s, 'sourceIP')).toBeNull();
    expect(answer(s, 'snat')).toBeNull();
    expect(answer(s, 'crossedNodes')).toBeNull();
  });

  it('Local, NodePort dialled on node-2 (no local Pod): dropped', () => {
    // kube-proxy's KUBE-EXTERNAL-SERVICES drops NodePort traffic to a node without local
    // endpoints under Local ("has no local endpoints" DROP rule).
    expect(answer('policy=Local&dial=nodeport:node-2', 'outcome')).toBe('dropped');
    expect(answer('policy=Local&dial=nodeport:node-2', 'pod')).toBe('none');
  });
});

describe('questionOptions', () => {
  const r = result('');
  it('pod: every Pod behind the Service, then "no Pod"', () => {
    expect(questionOptions({ ask: 'pod' }, r)).toEqual([
      { id: POD_1, label: 'web-6d8f9c7b5-x2k4p (10.244.1.5, node-1)' },
      { id: POD_3, label: 'web-6d8f9c7b5-q7m9z (10.244.3.9, node-3)' },
      { id: 'none', label: 'no Pod' },
    ]);
  });
  it('node: every node, then "no node"', () => {
    expect(questionOptions({ ask: 'node' }, r)).toEqual([
      { id: 'node:node-1', label: 'node-1 (192.168.0.11)' },
      { id: 'node:node-2', label: 'node-2 (192.168.0.12)' },
      { id: 'node:node-3', label: 'node-3 (192.168.0.13)' },
      { id: 'none', label: 'no node' },
    ]);
  });
  it('sourceIP: client, node addresses, pod-network gateways, the balancer', () => {
    expect(questionOptions({ ask: 'sourceIP' }, r)).toEqual([
      { id: 'ip:198.51.100.23', label: '198.51.100.23 (the client, internet)' },
      { id: 'ip:192.168.0.11', label: '192.168.0.11 (node-1)' },
      { id: 'ip:192.168.0.12', label: '192.168.0.12 (node-2)' },
      { id: 'ip:192.168.0.13', label: '192.168.0.13 (node-3)' },
      { id: 'ip:10.244.1.1', label: "10.244.1.1 (node-1's cni0 bridge)" },
      { id: 'ip:10.244.2.1', label: "10.244.2.1 (node-2's cni0 bridge)" },
      { id: 'ip:10.244.3.1', label: "10.244.3.1 (node-3's cni0 bridge)" },
      { id: 'ip:192.168.0.250', label: '192.168.0.250 (load balancer web-lb)' },
    ]);
  });
  it('sourceIP: one option per address, naming every owner', () => {
    const opts = questionOptions({ ask: 'sourceIP' }, result('client=node&dial=clusterip'));
    expect(opts[0]).toEqual({
      id: 'ip:192.168.0.12',
      label: '192.168.0.12 (the client, node, node-2)',
    });
    expect(opts.filter((o) => o.id === 'ip:192.168.0.12')).toHaveLength(1);
  });
  it('outcome, crossedNodes, snat', () => {
    expect(questionOptions({ ask: 'outcome' }, r).map((o) => o.id)).toEqual([
      'delivered',
      'dropped',
      'rejected',
      'timed-out',
      'no-address',
    ]);
    expect(questionOptions({ ask: 'snat' }, r)).toEqual([
      { id: 'yes', label: 'yes' },
      { id: 'no', label: 'no' },
    ]);
  });
});

describe('questionOptions with options:', () => {
  const r = result('lbTarget=node-2&endpoint=10.244.3.9:8080');
  it('sourceIP by group: the client and the nodes only (no gateways, no balancer yet)', () => {
    expect(
      questionOptions({ ask: 'sourceIP', options: ['client', 'nodes'] }, r).map((o) => o.id),
    ).toEqual(['ip:198.51.100.23', 'ip:192.168.0.11', 'ip:192.168.0.12', 'ip:192.168.0.13']);
    expect(
      questionOptions({ ask: 'sourceIP', options: ['balancer', 'ip:10.244.1.1'] }, r).map(
        (o) => o.id,
      ),
    ).toEqual(['ip:10.244.1.1', 'ip:192.168.0.250']);
  });
  it('other asks by option id, in the computed order', () => {
    expect(
      questionOptions({ ask: 'outcome', options: ['timed-out', 'dropped'] }, r).map((o) => o.id),
    ).toEqual(['dropped', 'timed-out']);
  });
  it('names what is neither an option nor a group', () => {
    expect(unknownOptionNames({ ask: 'sourceIP', options: ['nodes', 'gateways'] }, r)).toEqual([
      'gateways',
    ]);
    // Groups are sourceIP's only.
    expect(unknownOptionNames({ ask: 'outcome', options: ['nodes', 'dropped'] }, r)).toEqual([
      'nodes',
    ]);
  });
});

describe('isDeterministic', () => {
  const opts = { loadScenario };
  it('pins make the answer independent of the seed', () => {
    expect(isDeterministic(q('policy=Local&lbTarget=node-1', 'pod'), opts)).toBe(true);
    expect(isDeterministic(q('lbTarget=node-2&endpoint=10.244.3.9:8080', 'sourceIP'), opts)).toBe(
      true,
    );
  });
  it('under Cluster the endpoint is a random draw', () => {
    // Cluster: KUBE-SVC picks among both endpoints with `statistic --mode random`.
    const bySeed = answersBySeed(q('lbTarget=node-1', 'pod'), opts);
    expect(bySeed.size).toBe(16);
    expect(new Set(bySeed.values())).toEqual(new Set([POD_1, POD_3]));
    expect(isDeterministic(q('lbTarget=node-1', 'pod'), opts)).toBe(false);
  });
  it('a link that sets the seed is tried with that seed only', () => {
    expect([...answersBySeed(q('seed=3', 'pod'), opts).keys()]).toEqual([3]);
    expect(isDeterministic(q('seed=3', 'pod'), opts)).toBe(true);
  });
});

describe('parseQuestion', () => {
  const parse = (yaml: string) => {
    const b = extractBlocks(`Intro.\n\n\`\`\`question\n${yaml}\n\`\`\`\n`, 10).questions[0]!;
    const r = parseQuestion(b, 'content/chapters/07-traffic-policy.md');
    return { question: r.question, problems: r.problems.map(formatProblem) };
  };
  it('reads a question', () => {
    expect(
      parse(
        'id: local-source-ip\nscene: policy=Local&lbTarget=node-1\nask: sourceIP\nprompt: Which?\nexplain: Because.',
      ),
    ).toEqual({
      question: {
        id: 'local-source-ip',
        scene: 'policy=Local&lbTarget=node-1',
        ask: 'sourceIP',
        prompt: 'Which?',
        explain: 'Because.',
      },
      problems: [],
    });
  });
  it('reads options: as a list or a comma-separated string', () => {
    const base = 'id: x\nscene: policy=Local\nask: sourceIP\nprompt: P\n';
    expect(parse(`${base}options: [client, nodes]`).question?.options).toEqual(['client', 'nodes']);
    expect(parse(`${base}options: client, nodes`).question?.options).toEqual(['client', 'nodes']);
    expect(parse(`${base}options: [client, 3]`).problems).toEqual([
      'content/chapters/07-traffic-policy.md:17: question: options must be a list of option ids or groups, e.g. [client, nodes]',
    ]);
  });
  it('names the field and its file line', () => {
    // The block's fence is on body line 3 = file line 12; its YAML starts on line 13.
    expect(
      parse('id: Local IP\nscene: policy=Local\nask: ip\nprompt: ""\nanswer: 10.0.0.1').problems,
    ).toEqual([
      'content/chapters/07-traffic-policy.md:17: question: unknown field "answer" (fields: id, scene, ask, prompt, explain, options)',
      'content/chapters/07-traffic-policy.md:13: question: id "Local IP" must be lower-case letters and digits joined by dashes',
      'content/chapters/07-traffic-policy.md:15: question: ask "ip" must be one of pod, node, sourceIP, outcome, crossedNodes, snat',
      'content/chapters/07-traffic-policy.md:16: question: prompt must be a non-empty string',
    ]);
    expect(parse('id: x\nask: pod\nprompt: P').problems).toEqual([
      'content/chapters/07-traffic-policy.md:12: question: scene is required',
    ]);
    expect(parse('- a\n- b').problems).toEqual([
      'content/chapters/07-traffic-policy.md:12: question block must be a YAML mapping',
    ]);
  });
});
