import { describe, expect, it } from 'vitest';
import {
  canonicalObjects,
  DEFAULT_SCENE,
  DEFAULT_WALKTHROUGH,
  runScene,
  storyStepIndex,
} from '../model';
import { validateSharedState } from '../store/share/link';
import { formatSceneLink, parseSceneQuery } from './sceneLink';
import { resolveSceneLink, resolveSceneQuery } from './sceneResolve';
import { diskScenarioLoader } from './node';

const loadScenario = diskScenarioLoader(process.cwd());
const messages = (q: string) => parseSceneQuery(q).errors.map((e) => e.message);
const resolve = (q: string) => {
  const r = resolveSceneQuery(q, { loadScenario });
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  return r.scene;
};
const resolveErrors = (q: string) => {
  const r = resolveSceneQuery(q, { loadScenario });
  return r.ok ? [] : r.errors.map((e) => e.message);
};

describe('parseSceneQuery', () => {
  it('reads every key of AUTHORING.md', () => {
    const { link, errors } = parseSceneQuery(
      'scene:story=3&scenario=local-uneven&policy=Local&ipMode=Proxy&delivery=LoadBalancerIP&published=false&failed=node-1,node-3&client=pod&dial=nodeport:node-2&mode=nftables&lbTarget=node-1&endpoint=10.244.1.5:8080&seed=0&step=last&node=node-2',
    );
    expect(errors).toEqual([]);
    expect(link).toEqual({
      story: 3,
      scenario: 'local-uneven',
      policy: 'Local',
      ipMode: 'Proxy',
      delivery: 'LoadBalancerIP',
      published: false,
      failed: ['node-1', 'node-3'],
      client: 'pod',
      dial: { kind: 'NodePort', nodeName: 'node-2' },
      mode: 'nftables',
      lbTarget: 'node-1',
      endpoint: '10.244.1.5:8080',
      seed: 0,
      step: 'last',
      node: 'node-2',
    });
    expect(formatSceneLink(link)).toBe(
      'story=3&scenario=local-uneven&policy=Local&ipMode=Proxy&delivery=LoadBalancerIP&published=false&failed=node-1,node-3&client=pod&dial=nodeport:node-2&mode=nftables&lbTarget=node-1&endpoint=10.244.1.5:8080&seed=0&step=last&node=node-2',
    );
  });

  it('reads dial=lb and dial=clusterip, step numbers and 0', () => {
    expect(parseSceneQuery('dial=lb&step=0').link).toEqual({
      dial: { kind: 'LoadBalancer' },
      step: 0,
    });
    expect(parseSceneQuery('dial=clusterip&step=4').link).toEqual({
      dial: { kind: 'ClusterIP' },
      step: 4,
    });
    expect(parseSceneQuery('').link).toEqual({});
  });

  it('names the key and the value of every bad one', () => {
    expect(messages('polcy=Local')).toEqual([
      'polcy=Local: unknown key "polcy" (keys: story, scenario, policy, ipMode, delivery, balancer, published, failed, client, dial, mode, lbTarget, endpoint, seed, step, node)',
    ]);
    expect(messages('policy=cluster')).toEqual(['policy=cluster: must be Cluster or Local']);
    expect(messages('ipMode=vip')).toEqual(['ipMode=vip: must be VIP or Proxy']);
    expect(messages('delivery=VIP')).toEqual(['delivery=VIP: must be NodePort or LoadBalancerIP']);
    expect(messages('mode=ebpf')).toEqual(['mode=ebpf: must be iptables, nftables or ipvs']);
    expect(messages('published=yes')).toEqual(['published=yes: must be true or false']);
    expect(messages('story=6')).toEqual(['story=6: must be a walkthrough step from 1 to 5']);
    expect(messages('story=0')).toEqual(['story=0: must be a walkthrough step from 1 to 5']);
    expect(messages('seed=-1')).toEqual(['seed=-1: must be an integer ≥ 0']);
    expect(messages('step=first')).toEqual([
      'step=first: must be a step number (1, 2, …), last, or 0 for before the first step',
    ]);
    expect(messages('dial=node-2')).toEqual([
      'dial=node-2: must be lb, clusterip or nodeport:<node>',
    ]);
    expect(messages('endpoint=10.244.1.5')).toEqual([
      'endpoint=10.244.1.5: must be an endpoint ip:port, e.g. 10.244.1.5:8080',
    ]);
    expect(messages('endpoint=10.244.1.500:80')).toHaveLength(1);
    expect(messages('failed=node-1,,node-2')).toEqual([
      'failed=node-1,,node-2: must be node names separated by commas',
    ]);
    expect(messages('failed=node-1,node-1')).toEqual(['failed=node-1,node-1: names a node twice']);
    expect(messages('lbTarget=Node_1')).toEqual([
      'lbTarget=Node_1: must be a node name (lower-case letters, digits, - and .)',
    ]);
    expect(messages('policy=Local&policy=Cluster')).toEqual([
      'policy=Cluster: "policy" is given more than once',
    ]);
    expect(messages('node=')).toEqual(['node= has no value']);
  });

  it('keeps the good keys beside the bad ones', () => {
    const r = parseSceneQuery('policy=Local&step=x');
    expect(r.link).toEqual({ policy: 'Local' });
    expect(r.errors).toEqual([
      {
        key: 'step',
        value: 'x',
        message: 'step=x: must be a step number (1, 2, …), last, or 0 for before the first step',
      },
    ]);
  });
});

describe('resolveSceneLink', () => {
  it('opens the default scene, before the first step, with no link keys', () => {
    const r = resolveSceneLink({});
    expect(r.ok && r.scene.state).toEqual({ v: 1, scene: DEFAULT_SCENE, step: -1, story: null });
  });

  it('gives a SharedState the store accepts', () => {
    for (const q of [
      '',
      'story=2',
      'policy=Local&lbTarget=node-1&step=last&node=node-3',
      'scenario=local-uneven&step=3',
    ]) {
      const state = resolve(q).state;
      expect(validateSharedState(JSON.parse(JSON.stringify(state)), 'the link')).toEqual({
        ok: true,
        state,
      });
    }
  });

  it('story=3 opens walkthrough step 3: its scene over DEFAULT_SCENE and its trace step', () => {
    const story = DEFAULT_WALKTHROUGH.steps[2]!;
    const r = resolve('story=3');
    expect(r.state.story).toBe(2);
    expect(r.state.scene).toEqual({ ...DEFAULT_SCENE, ...story.scene });
    // Step 3 is "type: LoadBalancer, and the wait for an address": status.loadBalancer is
    // empty, so the scene is unpublished and shows the start (before the first step).
    expect(r.state.scene.published).toBe(false);
    expect(r.state.step).toBe(-1);
    expect(r.result.trace.outcome.kind).toBe('no-address');
  });

  it('story=5 shows the DNAT on node-1; other keys apply on top', () => {
    const story = DEFAULT_WALKTHROUGH.steps[4]!;
    const r = resolve('story=5');
    const expected = storyStepIndex(
      runScene(canonicalObjects(), { ...DEFAULT_SCENE, ...story.scene }).trace,
      story,
    );
    expect(r.state.step).toBe(expected);
    expect(r.result.trace.steps[r.state.step]).toMatchObject({
      at: 'node:node-1',
      transform: 'DNAT',
    });
    const local = resolve('story=5&policy=Local&step=last');
    expect(local.state.scene.externalTrafficPolicy).toBe('Local');
    expect(local.state.scene.choices).toEqual({ lbTarget: 'node-1', endpoint: '10.244.1.5:8080' });
    expect(local.state.step).toBe(local.result.trace.steps.length - 1);
    expect(local.state.story).toBe(4);
  });

  it('applies each toggle key to the scene', () => {
    const s = resolve(
      'policy=Local&ipMode=Proxy&delivery=LoadBalancerIP&failed=node-3&client=node&dial=nodeport:node-1&mode=nftables&seed=7&node=node-2',
    ).state;
    expect(s.scene).toEqual({
      ...DEFAULT_SCENE,
      externalTrafficPolicy: 'Local',
      ipMode: 'Proxy',
      delivery: 'LoadBalancerIP',
      failedNodes: ['node-3'],
      client: 'node',
      dial: { kind: 'NodePort', nodeName: 'node-1' },
      proxyMode: 'nftables',
      seed: 7,
    });
    expect(s.node).toBe('node-2');
    expect(resolve('published=false').state.scene.published).toBe(false);
    expect(resolve('dial=clusterip&client=pod').state.scene.dial).toEqual({ kind: 'ClusterIP' });
    expect(resolve('lbTarget=node-2&endpoint=10.244.3.9:8080').state.scene.choices).toEqual({
      lbTarget: 'node-2',
      endpoint: '10.244.3.9:8080',
    });
  });

  it('step: 1-based, last, 0 = before the first; checked against the trace length', () => {
    const n = resolve('').result.trace.steps.length;
    expect(n).toBeGreaterThan(0);
    expect(resolve('step=1').state.step).toBe(0);
    expect(resolve(`step=${n}`).state.step).toBe(n - 1);
    expect(resolve('step=last').state.step).toBe(n - 1);
    expect(resolve('step=0').state.step).toBe(-1);
    expect(resolveErrors(`step=${n + 1}`)).toEqual([
      `step=${n + 1}: the trace has ${n} steps (use 1–${n}, last, or 0 for before the first step)`,
    ]);
    // Nothing to dial while status.loadBalancer is empty: the trace has no step at all.
    expect(resolveErrors('published=false&step=1')).toEqual([
      'step=1: the trace has no steps (No address to dial yet: EXTERNAL-IP <pending>.); use 0 or last',
    ]);
  });

  it('checks names against the cluster', () => {
    expect(
      resolveErrors(
        'failed=node-9&client=bob&dial=nodeport:node-7&lbTarget=x&node=node-4&endpoint=10.244.2.4:8080',
      ),
    ).toEqual([
      'failed=node-9: no node "node-9" in the scenario (nodes: node-1, node-2, node-3)',
      'client=bob: no Client "bob" in the scenario (clients: internet, node, pod)',
      'dial=nodeport:node-7: no node "node-7" in the scenario (nodes: node-1, node-2, node-3)',
      'lbTarget=x: no node "x" in the scenario (nodes: node-1, node-2, node-3)',
      'endpoint=10.244.2.4:8080: not an endpoint of Service default/web (endpoints: 10.244.1.5:8080, 10.244.3.9:8080)',
      'node=node-4: no node "node-4" in the scenario (nodes: node-1, node-2, node-3)',
    ]);
  });

  it('reports a pin the model cannot honour (the scene would depend on the seed)', () => {
    // Under Local, node-2 has no local endpoint: its healthCheckNodePort answers 503 and the
    // balancer leaves it out (pkg/proxy/healthcheck/service_health.go), so it cannot be pinned.
    expect(resolveErrors('policy=Local&lbTarget=node-2')).toEqual([
      'lbTarget=node-2: the balancer cannot use this pin, node-2 is not eligible (health check http://192.168.0.12:32191/healthz: 503, no local endpoints); it picked node-3 by the seed',
    ]);
    // Under Local, node-1's rules only use node-1's endpoints (KUBE-SVL chain).
    expect(resolveErrors('policy=Local&lbTarget=node-1&endpoint=10.244.3.9:8080')).toEqual([
      "endpoint=10.244.3.9:8080: kube-proxy cannot use this pin, it is not eligible (on node-3: Local policy uses only this node's endpoints); it picked 10.244.1.5:8080",
    ]);
  });

  it("loads scenario=<name> with the caller's loader and shows it as it is", () => {
    const r = resolve('scenario=local-uneven');
    expect(r.state.objects?.length).toBeGreaterThan(0);
    // local-uneven.yaml's Service has externalTrafficPolicy: Local; the link does not override it.
    expect(r.state.scene.externalTrafficPolicy).toBe('Local');
    expect(resolve('scenario=canonical').state.objects).toBeUndefined();
    expect(resolveErrors('scenario=nope')).toEqual([
      'scenario=nope: no example "nope" in public/examples/index.json (examples: canonical, cloud-cluster-policy, local-uneven, bare-metal-pending, ipmode-proxy, source-ranges, multi-port-named, eks-hostname)',
    ]);
    expect(resolveSceneQuery('scenario=local-uneven')).toEqual({
      ok: false,
      errors: [
        {
          key: 'scenario',
          value: 'local-uneven',
          message: 'scenario=local-uneven: no scenario loader was given',
        },
      ],
    });
  });

  it('bare metal without a published address: nothing to dial', () => {
    const r = resolve('scenario=bare-metal-pending&step=last');
    expect(r.state.scene.published).toBe(false);
    expect(r.result.trace.outcome.kind).toBe('no-address');
  });

  it('stops at parse errors', () => {
    expect(resolveErrors('policy=local')).toEqual(['policy=local: must be Cluster or Local']);
  });
});
