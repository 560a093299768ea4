/**
 * The commands of `npm run datapath -- <command> …` (the model, headless); src/cli/main.ts runs them.
 *
 *   rules --node NAME [--mode M] FILE…             that node's kube-proxy rules, as the mode's tool prints them
 *   trace FILE… [--client NAME|IP] [--seed N] [--mode M] [--json]   one connection, step by step, and its outcome
 *   flow --node NAME --src IP --dst IP --dport N [--proto tcp|udp|sctp] [--mode M] FILE… [--json]
 *   stats FILE… --connections N [--seed S] [--client NAME|IP] [--mode M] [--json]   many connections, per node and Pod
 *   timeline FILE… --events EVENTS [--json] [options]   health checks, rotation, failures over simulated time
 *
 * --mode (iptables, nftables or ipvs) overrides the KubeProxyConfiguration's mode.
 *                                                   what the node's rules do to one new packet
 *
 * FILE is Kubernetes objects (YAML, multi-document YAML, JSON or a List) plus, optionally,
 * our own kinds; `-` reads standard input. The files are validated as the app validates them
 * (src/model/import/importer.ts): an error is printed as `FILE:LINE:COLUMN: OBJECT: MESSAGE` on
 * stderr with exit status 2; warnings, skipped kinds and assumptions go to stderr too, so
 * stdout holds only the command's answer.
 */
import { parseArgs } from 'node:util';
import type { ScenarioObject } from '../model/k8s/objects';
import { resolveCluster } from '../model/scenario/resolve';
import { flowVerdict } from '../model/kube-proxy/flow';
import { proxyMode, modelledModes } from '../model/kube-proxy/modes';
import type { ProxyMode } from '../model/kube-proxy/types';
import { trace } from '../model/trace/trace';
import { isIPv4 } from '../model/net/ip';
import type { Protocol } from '../model/net/ip';
import { InputError, UsageError, readObjects, seedOf } from './input';
import { clientFor } from '../model/time/scenario';
import { CONTROLLER_KINDS } from '../model/time/registry';
import { EVENT_ACTIONS } from '../model/time/eventArgs';
import { cmdStats } from './stats';
import { cmdTimeline } from './timeline';

const USAGE = `usage: npm run datapath -- <command> [options] FILE…

commands:
  rules --node NAME [--mode M] FILE…
  trace FILE… [--client NAME|IP] [--seed N] [--mode M] [--json]
  flow  --node NAME --src IP --dst IP --dport N [--proto tcp|udp|sctp] [--mode M] FILE… [--json]
  stats FILE… --connections N [--seed S] [--client NAME|IP] [--mode M] [--json]
  timeline FILE… --events EVENTS [--json] [--seed S] [--client NAME|IP] [--connections N]
        [--period D] [--hold D] [--horizon D] [--controller ${CONTROLLER_KINDS.join('|')}]
        [--from-creation] [--probes] [--records] [--mode M]

--mode M: iptables, nftables or ipvs (default: the KubeProxyConfiguration's mode, else iptables)

FILE: Kubernetes objects as kubectl prints them (YAML, JSON or a List); - for stdin.
EVENTS: a YAML/JSON file, or inline KIND:ARG@TIME,… (${EVENT_ACTIONS.join(', ')}).
Example: npm run datapath -- trace public/examples/canonical.yaml --seed 3
         npm run datapath -- stats public/examples/local-uneven.yaml --connections 100000
         npm run datapath -- timeline public/examples/canonical.yaml --events fail:node-1@12s,restore:node-1@90s`;

/** Resolves the objects; `--mode` overrides kube-proxy's configured mode. */
function clusterOf(objects: ScenarioObject[], mode: string | undefined) {
  const cluster = resolveCluster(objects);
  if (mode !== undefined) {
    if (mode !== 'iptables' && mode !== 'nftables' && mode !== 'ipvs')
      throw new UsageError(`--mode ${mode}: must be iptables, nftables or ipvs`);
    if (!modelledModes().includes(mode))
      throw new UsageError(
        `--mode ${mode}: not modelled yet (modelled: ${modelledModes().join(', ')})`,
      );
    cluster.kubeProxy.mode = mode as ProxyMode;
  }
  return cluster;
}

function requireOpt(v: string | undefined, name: string): string {
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function cmdRules(args: string[], notes: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { node: { type: 'string' }, mode: { type: 'string' } },
  });
  const objects = readObjects(positionals, notes);
  const cluster = clusterOf(objects, values.mode);
  const node = requireOpt(values.node, 'node');
  if (!cluster.nodes.some((n) => n.name === node))
    throw new UsageError(
      `--node ${node}: no such node (nodes: ${cluster.nodes.map((n) => n.name).join(', ')})`,
    );
  const rs = proxyMode(cluster.kubeProxy.mode).generate(cluster, node);
  return rs.lines.map((l) => l.text).join('\n');
}

function cmdTrace(args: string[], notes: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      client: { type: 'string' },
      seed: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const seed = seedOf(values.seed);
  const objects = readObjects(positionals, notes);
  // An IPv4 address: a process on the node that owns it, else an Internet client there.
  const client = clientFor(objects, values.client ?? 'internet');
  const cluster = clusterOf(objects, values.mode);
  if (!cluster.clients.some((c) => c.name === client))
    throw new UsageError(
      `--client ${client}: no such Client (clients: ${cluster.clients.map((c) => c.name).join(', ')})`,
    );
  const t = trace(cluster, { client, dial: { kind: 'LoadBalancer' }, choices: {}, seed });
  if (values.json) return JSON.stringify({ steps: t.steps, outcome: t.outcome }, null, 2);
  const addr = (p: { src: string; sport: number; dst: string; dport: number }) =>
    `${p.src}:${p.sport} → ${p.dst}:${p.dport}`;
  const lines: string[] = [];
  for (const s of t.steps) {
    lines.push(`${String(s.index + 1).padStart(2)}. [${s.at}] ${s.narration.title}`);
    const changes = s.changed
      .map((f) => (f === 'mark' ? `mark 0x${s.after.mark.toString(16)}` : f))
      .join(', ');
    lines.push(
      `    ${addr(s.before)}${s.changed.length ? `  ⇒  ${addr(s.after)}  (${s.transform}: ${changes})` : ''}`,
    );
    if (s.rule && s.rule.kind === 'kube-proxy') lines.push(`    ${s.rule.table}: ${s.rule.text}`);
    if (s.decision)
      lines.push(
        `    chose ${s.decision.chosen} of ${s.decision.candidates
          .filter((c) => c.eligible)
          .map((c) => `${c.id} (${(c.probability * 100).toFixed(1)}%)`)
          .join(', ')}`,
      );
  }
  lines.push(`outcome: ${t.outcome.kind}: ${t.outcome.summary}`);
  if (t.outcome.kind === 'delivered' && t.outcome.reply) lines.push(`reply: ${t.outcome.reply}`);
  return lines.join('\n');
}

function cmdFlow(args: string[], notes: string[]): string {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      node: { type: 'string' },
      src: { type: 'string' },
      dst: { type: 'string' },
      dport: { type: 'string' },
      proto: { type: 'string' },
      mode: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const src = requireOpt(values.src, 'src');
  const dst = requireOpt(values.dst, 'dst');
  if (!isIPv4(src)) throw new UsageError(`--src ${src}: not an IPv4 address`);
  if (!isIPv4(dst)) throw new UsageError(`--dst ${dst}: not an IPv4 address`);
  const dport = Number(requireOpt(values.dport, 'dport'));
  if (!Number.isInteger(dport) || dport < 1 || dport > 65535)
    throw new UsageError(`--dport ${values.dport}: must be 1-65535`);
  const proto = (values.proto ?? 'tcp') as Protocol;
  if (!['tcp', 'udp', 'sctp'].includes(proto))
    throw new UsageError(`--proto ${proto}: must be tcp, udp or sctp`);
  const objects = readObjects(positionals, notes);
  const cluster = clusterOf(objects, values.mode);
  const nodeName = requireOpt(values.node, 'node');
  const node = cluster.nodes.find((n) => n.name === nodeName);
  if (!node) throw new UsageError(`--node ${nodeName}: no such node`);
  const origin = node.addresses.includes(src) ? 'local-host' : 'network';
  const impl = proxyMode(cluster.kubeProxy.mode);
  const r = flowVerdict(
    impl,
    impl.generate(cluster, node.name),
    node,
    { protocol: proto, src, sport: 51234, dst, dport, mark: 0 },
    origin,
  );
  if (values.json) return JSON.stringify(r);
  return `verdict: ${r.verdict}\nendpoints: ${r.endpoints.join(' ') || '(none)'}\nmasquerade: ${r.masquerade}`;
}

/** What one CLI run prints and its exit status (0 ok, 2 usage or input error). */
export interface CliResult {
  status: number;
  /** Standard output, ending in a newline when not empty. */
  stdout: string;
  /**
   * Standard error: the notes (the validator's warnings, skipped kinds, what was assumed), one
   * per line; on failure, the validator's errors (`FILE:LINE:COLUMN: OBJECT: MESSAGE`), then
   * `datapath: <message>`, then the usage for a usage error.
   */
  stderr: string;
}

/**
 * Runs the CLI on `argv` (without `node` and the script) in this process and returns what it
 * prints; never throws, never exits. `src/cli/main.ts` writes the result to the process's
 * streams; tests and benchmarks call this directly.
 */
export function runCli(argv: string[]): CliResult {
  const [cmd, ...rest] = argv;
  const notes: string[] = [];
  const lines = (xs: readonly string[]) => xs.map((x) => `${x}\n`).join('');
  try {
    let out: string;
    if (cmd === 'rules') out = cmdRules(rest, notes);
    else if (cmd === 'trace') out = cmdTrace(rest, notes);
    else if (cmd === 'flow') out = cmdFlow(rest, notes);
    else if (cmd === 'stats') out = cmdStats(rest, notes);
    else if (cmd === 'timeline') out = cmdTimeline(rest, notes);
    else if (cmd === undefined) return { status: 2, stdout: '', stderr: `${USAGE}\n` };
    else if (cmd === '--help' || cmd === '-h' || cmd === 'help')
      return { status: 0, stdout: `${USAGE}\n`, stderr: '' };
    else throw new UsageError(`unknown command "${cmd}"`);
    return { status: 0, stdout: out.endsWith('\n') ? out : `${out}\n`, stderr: lines(notes) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const usage =
      e instanceof UsageError ||
      String((e as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS');
    const problems = e instanceof InputError ? e.problems : [];
    return {
      status: 2,
      stdout: '',
      stderr: `${lines(notes)}${lines(problems)}datapath: ${msg}\n${usage ? `\n${USAGE}\n` : ''}`,
    };
  }
}
