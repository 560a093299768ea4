/**
 * The book's "real output" samples (fenced `iptables`, `nft`, `ipvsadm` and `console` blocks)
 * are the model's output for its declared Kubernetes version ({@link MODELLED_KUBERNETES_VERSION}):
 * each checked sample is regenerated here and compared with the chapter's text, so a change to
 * the model or to a chapter that makes them disagree fails this test. Every such block must be
 * listed below, either as checked (with what regenerates it) or as not checked, with the
 * reason (a command, or the output of a component the model does not run).
 *
 * Formats the model follows (each cited where it is made): `iptables-save`
 * (`pkg/proxy/iptables/proxier.go`), `nft list table ip kube-proxy`
 * (`pkg/proxy/nftables/proxier.go`), `ipvsadm -Ln`, `conntrack -L` (conntrack-tools),
 * `kubectl get svc` (`pkg/printers/internalversion/printers.go`, tabwriter), kube-proxy's
 * health answers (`pkg/proxy/healthcheck/service_health.go`, `proxy_health.go`), the API
 * server's validation message (`pkg/apis/core/validation/validation.go`). The Events table of
 * `kubectl describe` is printed here as kubectl's `DescribeEvents`
 * (`staging/src/k8s.io/kubectl/pkg/describe/describe.go`) prints it: a tabwriter with
 * padding 2, rows `Type Reason Age From Message` indented two spaces, Age as
 * `duration.HumanDuration` of the time since the event.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Code } from 'mdast';
import { describe, expect, it } from 'vitest';
import { canonicalObjects, DEFAULT_SCENE, probeNode, resolveCluster } from '../model';
import { kubeProxyHealthz } from '../model/cloud/kubeProxyHealthz';
import { validateText } from '../model/import/validate';
import { MODELLED_KUBERNETES_VERSION } from '../model/k8s/version';
import { applyScene } from '../model/scenario/scene';
import {
  formatSvcTable,
  humanDuration,
  parseDuration,
  simulate,
  svcRowAt,
} from '../model/time/index';
import type { Timeline } from '../model/time/index';
import { parseMarkdown, walk } from './markdown';
import { diskScenarioLoader, readContent } from './node';
import { resolveSceneQuery } from './sceneResolve';

const root = join(__dirname, '..', '..');
const files = readContent(root);
const loadScenario = diskScenarioLoader(root);

/** Languages whose blocks show what a command printed. */
const OUTPUT_LANGS = new Set(['iptables', 'nft', 'ipvsadm', 'console']);

interface Block {
  file: string;
  line: number;
  lang: string;
  text: string;
}

function outputBlocks(): Block[] {
  const out: Block[] = [];
  for (const [file, text] of Object.entries(files.chapters))
    walk(parseMarkdown(text), (n) => {
      if (n.type !== 'code') return;
      const c = n as Code;
      if (c.lang && OUTPUT_LANGS.has(c.lang))
        out.push({ file, line: c.position?.start.line ?? 0, lang: c.lang, text: c.value });
    });
  return out;
}

// ---- regenerating ---------------------------------------------------------------------

/** A scene query resolved as a chapter link is (`scene:…`), or the test fails with its problems. */
function scene(query: string) {
  const r = resolveSceneQuery(query, { loadScenario });
  if (!r.ok) throw new Error(`${query}: ${r.errors.map((e) => e.message).join('; ')}`);
  return r.scene;
}

/** The rules the model writes on `node` for the scene, one line each. */
function rulesOf(query: string, node: string): string[] {
  return scene(query).result.rules[node]!.lines.map((l) => l.text);
}

/** Every non-comment line of the block appears, as written, in the model's rules. */
function linesIn(query: string, node: string) {
  return (block: string) => {
    const have = new Set(rulesOf(query, node).map((l) => l.trimEnd()));
    const want = block.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(want.filter((l) => !have.has(l))).toEqual([]);
  };
}

/**
 * Every paragraph of the block (lines between blank lines) appears as consecutive lines of the
 * model's output; nft's are compared one indentation level out (the block quotes the chains
 * without their enclosing `table ip kube-proxy {`).
 */
function paragraphsIn(query: string, node: string, dedent: boolean) {
  return (block: string) => {
    const out = rulesOf(query, node).map((l) => (dedent ? l.replace(/^\t/, '') : l).trimEnd());
    const text = `\n${out.join('\n')}\n`;
    const missing = block.split(/\n\s*\n/).filter((p) => !text.includes(`\n${p.trimEnd()}\n`));
    expect(missing).toEqual([]);
  };
}

/** Every conntrack text the scene's trace shows: each node's entry at each step, and the last. */
function conntrackOf(query: string): string[] {
  const t = scene(query).result.trace;
  const texts = new Set(t.conntrack.map((c) => c.text));
  for (const s of t.steps) if (s.conntrack) texts.add(s.conntrack.text);
  return [...texts];
}

/** The block's `conntrack -L` lines (not the command, not the tool's closing count) are the model's. */
function conntrackLines(query: string) {
  return (block: string) => {
    const lines = block.split('\n').filter((l) => /^(tcp|udp|sctp) /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    const have = conntrackOf(query);
    expect(lines.filter((l) => !have.includes(l))).toEqual([]);
  };
}

/**
 * An `ESTABLISHED` entry, a state the model does not reach (its traces end at `SYN_RECV`):
 * only its two tuples are compared, with the model's entry for the same connection.
 */
function conntrackTuples(query: string) {
  const tuples = (l: string) => l.match(/(?:src|dst|sport|dport)=\S+/g)?.join(' ');
  return (block: string) => {
    const lines = block.split('\n').filter((l) => /^(tcp|udp|sctp) /.test(l));
    expect(lines.length).toBeGreaterThan(0);
    const have = conntrackOf(query).map(tuples);
    expect(lines.filter((l) => !have.includes(tuples(l)))).toEqual([]);
  };
}

const timelines = new Map<string, Timeline>();
/**
 * The Time & failures view's run from the Service's creation (no events), with the cloud's
 * controller, or none (`bare-metal-pending`: nothing implements the type).
 */
function fromCreation(scenario: string): Timeline {
  let tl = timelines.get(scenario);
  const controller = scenario === 'bare-metal-pending' ? 'none' : 'cloud';
  if (!tl) {
    const objects = scenario === 'canonical' ? canonicalObjects() : loadScenario(scenario);
    tl = simulate({
      objects: [...objects],
      scene: scenario === 'canonical' ? DEFAULT_SCENE : scene(`scenario=${scenario}`).state.scene,
      events: [],
      workload: { count: 0 },
      horizonMs: 120_000,
      provisioning: { fromCreation: true, controller },
    });
    timelines.set(scenario, tl);
  }
  return tl;
}

/** `kubectl get svc <name>` run once, `age` after creation (past the run, the last row holds). */
function getSvc(scenario: string, age: string) {
  return (block: string) => {
    const tl = fromCreation(scenario);
    const at = parseDuration(age);
    const row = { ...svcRowAt(tl, Math.min(at, tl.settings.horizonMs)), AGE: humanDuration(at) };
    expect(block).toBe(`$ kubectl get svc ${row.NAME}\n${formatSvcTable([row])}`);
  };
}

/** `kubectl get svc <name> --watch` started `startAge` after creation: that row, then one per change. */
function watchSvc(scenario: string, startAge: string) {
  return (block: string) => {
    const tl = fromCreation(scenario);
    const at = parseDuration(startAge);
    const rows = [svcRowAt(tl, at), ...tl.svc.filter((r) => r.at > at)];
    expect(block).toBe(`$ kubectl get svc ${rows[0]!.NAME} --watch\n${formatSvcTable(rows)}`);
  };
}

/** The Events table of `kubectl describe svc`, run `age` after creation, as `DescribeEvents` prints it. */
function describeEvents(scenario: string, age: string) {
  return (block: string) => {
    const tl = fromCreation(scenario);
    const at = parseDuration(age);
    const events = tl.entries.filter(
      (e) => e.reason && e.actor === 'service-controller' && e.at <= at,
    );
    const rows = [
      ['Type', 'Reason', 'Age', 'From', 'Message'],
      ['----', '------', '----', '----', '-------'],
      ...events.map((e) => ['Normal', e.reason!, humanDuration(at - e.at), e.actor, e.message]),
    ];
    const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)) + 2);
    const table = rows.map(
      (r) => `  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('')}`,
    );
    const shown = block.slice(block.indexOf('Events:\n') + 'Events:\n'.length);
    expect(shown).toBe(table.join('\n'));
  };
}

/** `curl -i` of node's healthCheckNodePort under Local: status line, the model's headers and body. */
function healthCheckNodePort(node: string) {
  return (block: string) => {
    const cluster = resolveCluster(
      applyScene(canonicalObjects(), { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local' }),
    );
    const svc = cluster.services[0]!;
    const n = cluster.nodes.find((x) => x.name === node)!;
    const r = probeNode(cluster, svc, n);
    const [head, body] = block.split('\n\n');
    expect(body).toBe(r.body);
    const lines = head!.split('\n');
    expect(lines[0]).toBe(`$ curl -i ${r.target}`);
    expect(lines[1]).toBe(
      r.status === 200 ? 'HTTP/1.1 200 OK' : 'HTTP/1.1 503 Service Unavailable',
    );
    // service_health.go hcHandler: these headers, the weight being the local endpoint count.
    const local = JSON.parse(r.body) as { localEndpoints: number };
    expect(lines).toContain('Content-Type: application/json');
    expect(lines).toContain('X-Content-Type-Options: nosniff');
    expect(lines).toContain(`X-Load-Balancing-Endpoint-Weight: ${local.localEndpoints}`);
    expect(lines).toContain(`Content-Length: ${new TextEncoder().encode(r.body).length}`);
  };
}

/** `curl -s :10256/healthz`: the model's body for the times the sample shows. */
function kubeProxyHealthzSample(block: string) {
  const [cmd, body] = block.split('\n');
  expect(cmd).toBe('$ curl -s http://192.168.0.11:10256/healthz');
  const parsed = JSON.parse(body!) as {
    currentTime: string;
    status: { IPv4: { lastUpdated: string } };
  };
  const nowMs = Date.parse(parsed.currentTime);
  const lastSyncMs = Date.parse(parsed.status.IPv4.lastUpdated);
  expect(body).toBe(
    kubeProxyHealthz({ nowMs, lastSyncMs, startedMs: lastSyncMs, nodeEligible: true }).body,
  );
}

/** `kubectl get svc web -o jsonpath='{.spec.healthCheckNodePort}'` once the policy is Local. */
function healthCheckNodePortNumber(block: string) {
  const cluster = resolveCluster(
    applyScene(canonicalObjects(), { ...DEFAULT_SCENE, externalTrafficPolicy: 'Local' }),
  );
  expect(block.split('\n')[1]).toBe(String(cluster.services[0]!.healthCheckNodePort));
}

/** The API server's refusal of `nodePort: 29999`, as kubectl prints it (`The Service "web" is invalid: …`). */
function nodePortOutOfRange(block: string) {
  const yaml = readFileSync(join(root, 'public', 'examples', 'canonical.yaml'), 'utf8').replace(
    'nodePort: 31000',
    'nodePort: 29999',
  );
  const p = validateText(yaml).problems.find((x) => x.path === 'spec.ports[0].nodePort');
  expect(p).toBeDefined();
  expect(block).toBe(`The Service "web" is invalid: ${p!.message}`);
}

// ---- the samples ------------------------------------------------------------------------

interface Checked {
  file: string;
  /** The block's first line, which identifies it in the file. */
  first: string;
  /** What regenerates it, for the report. */
  by: string;
  check: (block: string) => void;
}

const CH = (n: string) => `content/chapters/${n}.md`;
const NODE1 = 'lbTarget=node-1&endpoint=10.244.3.9:8080';

const CHECKED: Checked[] = [
  ...[
    '-A PREROUTING',
    '-A KUBE-SERVICES -d 10.96.0.50/32',
    '-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports',
    '-A KUBE-NODEPORTS -d 127.0.0.0/8',
    '-A KUBE-EXT-CDGGSHYLG3RE2FKL -m comment',
    '-A KUBE-MARK-MASQ',
    '-A KUBE-SVC-CDGGSHYLG3RE2FKL ! -s',
    '-A KUBE-SEP-RBX5X5TOEG5GD3RO',
    '-A KUBE-FORWARD',
    '-A KUBE-POSTROUTING',
  ].map((first) => ({
    file: CH('06-kube-proxy'),
    first,
    by: 'iptables rules of node-1, canonical',
    check: linesIn('', 'node-1'),
  })),
  {
    file: CH('06-kube-proxy'),
    first: 'map service-nodeports {',
    by: 'nftables rules of node-1, canonical',
    check: paragraphsIn('mode=nftables', 'node-1', true),
  },
  {
    file: CH('06-kube-proxy'),
    first: 'TCP  192.168.0.11:31000 rr',
    by: 'ipvsadm -Ln of node-1, canonical',
    check: paragraphsIn('mode=ipvs', 'node-1', false),
  },
  {
    file: CH('07-traffic-policy'),
    first: '-A KUBE-NODEPORTS -p tcp',
    by: 'iptables rules of node-2, Cluster',
    check: linesIn('', 'node-2'),
  },
  {
    file: CH('07-traffic-policy'),
    first: '-A KUBE-EXT-CDGGSHYLG3RE2FKL -s 10.244.0.0/16',
    by: 'iptables rules of node-1, Local',
    check: linesIn('policy=Local', 'node-1'),
  },
  {
    file: CH('07-traffic-policy'),
    first: '-A KUBE-EXTERNAL-SERVICES',
    by: 'iptables rules of node-2, Local',
    check: linesIn('policy=Local', 'node-2'),
  },
  {
    file: CH('08-health-checks'),
    first:
      '-A KUBE-NODEPORTS -p tcp -m comment --comment "default/web:http health check node port"',
    by: 'iptables rules of node-1, Local',
    check: linesIn('policy=Local', 'node-1'),
  },
  {
    file: CH('09-ipmode-and-proxy-protocol'),
    first: '-A KUBE-SERVICES -d 203.0.113.7/32',
    by: 'iptables rules of node-1, canonical',
    check: linesIn('', 'node-1'),
  },
  {
    file: CH('16-security'),
    first: '# excerpt: the lines that implement the source ranges',
    by: 'iptables rules of metal-01, source-ranges',
    check: linesIn('scenario=source-ranges', 'metal-01'),
  },
  {
    file: CH('16-security'),
    first: '-A KUBE-NODEPORTS -p tcp -m comment --comment "monitoring/grafana:http-web"',
    by: 'iptables rules of metal-01, source-ranges',
    check: linesIn('scenario=source-ranges', 'metal-01'),
  },
  {
    file: CH('02-three-floors'),
    first: 'The Service "web" is invalid:',
    by: "the model's validator on canonical.yaml with nodePort 29999",
    check: nodePortOutOfRange,
  },
  {
    file: CH('02-three-floors'),
    first: '$ kubectl get svc web',
    by: 'the Time & failures run from creation, canonical, at 12m',
    check: getSvc('canonical', '12m'),
  },
  {
    file: CH('14-bare-metal'),
    first: '$ kubectl get svc web',
    by: 'the Time & failures run from creation with no controller, bare-metal-pending, at 5d',
    check: getSvc('bare-metal-pending', '120h'),
  },
  {
    file: CH('13-clouds'),
    first: '$ kubectl get svc web',
    by: 'the Time & failures run from creation, canonical, at 4m',
    check: getSvc('canonical', '4m'),
  },
  {
    file: CH('04-provisioning'),
    first: '$ kubectl get svc web --watch',
    by: 'the Time & failures run from creation, canonical, watched from 4s',
    check: watchSvc('canonical', '4s'),
  },
  {
    file: CH('04-provisioning'),
    first: '$ kubectl describe svc web',
    by: "the run's service-controller events, described at 40s",
    check: describeEvents('canonical', '40s'),
  },
  {
    file: CH('17-observability'),
    first: '$ kubectl describe svc web',
    by: "the run's service-controller events, described at 1m30s",
    check: describeEvents('canonical', '1m30s'),
  },
  ...[CH('03-full-picture'), CH('06-kube-proxy')].map((file) => ({
    file,
    first: 'tcp      6 120 SYN_SENT src=198.51.100.23 dst=192.168.0.11',
    by: `conntrack entries of the trace ${NODE1}`,
    check: conntrackLines(NODE1),
  })),
  {
    file: CH('07-traffic-policy'),
    first: 'tcp      6 120 SYN_SENT src=198.51.100.23 dst=192.168.0.12',
    by: 'conntrack entries of the trace lbTarget=node-2&endpoint=10.244.3.9:8080',
    check: conntrackLines('lbTarget=node-2&endpoint=10.244.3.9:8080'),
  },
  {
    file: CH('11-connection-lifecycle'),
    first: '$ conntrack -L -p tcp --orig-port-dst 31000',
    by: 'conntrack entries of the trace lbTarget=node-2&endpoint=10.244.3.9:8080',
    check: conntrackLines('lbTarget=node-2&endpoint=10.244.3.9:8080'),
  },
  {
    file: CH('11-connection-lifecycle'),
    first: 'tcp      6 86397 ESTABLISHED',
    by: 'the tuples of the trace lbTarget=node-2&endpoint=10.244.3.9:8080 (ESTABLISHED is past the model)',
    check: conntrackTuples('lbTarget=node-2&endpoint=10.244.3.9:8080'),
  },
  {
    file: CH('17-observability'),
    first: '$ sudo conntrack -L -p tcp --orig-port-dst 31000',
    by: 'conntrack entries of the trace lbTarget=node-2&endpoint=10.244.3.9:8080',
    check: conntrackLines('lbTarget=node-2&endpoint=10.244.3.9:8080'),
  },
  {
    file: CH('08-health-checks'),
    first: '$ kubectl get svc web -o jsonpath=\'{.spec.healthCheckNodePort}{"\\n"}\'',
    by: 'the healthCheckNodePort the scene allocates under Local',
    check: healthCheckNodePortNumber,
  },
  {
    file: CH('08-health-checks'),
    first: '$ curl -i http://192.168.0.11:32191/healthz',
    by: "probeNode(node-1) under Local: kube-proxy's service health answer",
    check: healthCheckNodePort('node-1'),
  },
  {
    file: CH('08-health-checks'),
    first: '$ curl -i http://192.168.0.12:32191/healthz',
    by: "probeNode(node-2) under Local: kube-proxy's service health answer",
    check: healthCheckNodePort('node-2'),
  },
  {
    file: CH('08-health-checks'),
    first: '$ curl -s http://192.168.0.11:10256/healthz',
    by: "kubeProxyHealthz for the sample's times, declared version",
    check: kubeProxyHealthzSample,
  },
];

/** Blocks that are not the model's output, and why. */
const NOT_CHECKED: { file: string; first: string; why: string }[] = [
  {
    file: CH('12-node-failure'),
    first: '$ kubectl drain node-1 --ignore-daemonsets',
    why: 'kubectl drain prints what the API and the eviction answer; the model does not run kubectl',
  },
  {
    file: CH('12-node-failure'),
    first: 'error when evicting pods/',
    why: "the eviction API's PodDisruptionBudget refusal; the model has no PodDisruptionBudgets",
  },
  {
    file: CH('12-node-failure'),
    first: '$ kubectl label node node-1',
    why: "kubectl's confirmation of a label, not modelled output",
  },
  {
    file: CH('17-observability'),
    first: '$ kubectl get events -A',
    why: 'a command with no output shown',
  },
];

describe('real-output samples', () => {
  const blocks = outputBlocks();
  const key = (file: string, first: string) => `${file}\n${first}`;
  const find = (file: string, first: string) =>
    blocks.filter((b) => b.file === file && b.text.startsWith(first));

  it('every output block of the book is either checked against the model or listed with a reason', () => {
    const listed = new Set(
      [...CHECKED, ...NOT_CHECKED].flatMap((s) =>
        find(s.file, s.first).map((b) => `${b.file}:${b.line}`),
      ),
    );
    const unlisted = blocks
      .filter((b) => !listed.has(`${b.file}:${b.line}`))
      .map((b) => `${b.file}:${b.line} ${b.text.split('\n')[0]}`);
    expect(unlisted).toEqual([]);
  });

  it('every listed sample names blocks that exist', () => {
    for (const s of [...CHECKED, ...NOT_CHECKED])
      expect(find(s.file, s.first).length, key(s.file, s.first)).toBeGreaterThan(0);
  });

  for (const s of CHECKED)
    it(`${s.file.replace('content/chapters/', '')}: "${s.first.slice(0, 48)}" is ${s.by}`, () => {
      for (const b of find(s.file, s.first)) s.check(b.text);
    });

  it(`the book states the version its samples are for: Kubernetes ${MODELLED_KUBERNETES_VERSION}`, () => {
    const flat = (f: string) => files.chapters[CH(f)]!.replace(/\s+/g, ' ');
    expect(
      flat('06-kube-proxy').includes(`output for Kubernetes ${MODELLED_KUBERNETES_VERSION}`),
    ).toBe(true);
    expect(flat('08-health-checks').includes(`it declares ${MODELLED_KUBERNETES_VERSION}`)).toBe(
      true,
    );
  });
});
