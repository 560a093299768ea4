/**
 * "Check yourself" questions: a fenced `question` block asks the learner to predict something
 * about a scene; the options and the right answer are computed from the model's result at run
 * time (content/AUTHORING.md, "Check yourself"), never read from the text.
 */
import type { SceneResult } from '../model';
import type { Problem } from './problem';
import type { YamlBlock } from './blocks';
import { isRecord } from './yamlLines';
import { parseSceneQuery } from './sceneLink';
import type { ResolveOptions } from './sceneResolve';
import { resolveSceneLink } from './sceneResolve';

/** What a question asks about the traced connection. */
export type Ask = 'pod' | 'node' | 'sourceIP' | 'outcome' | 'crossedNodes' | 'snat';

/** The values `ask` may take. */
export const ASKS: readonly Ask[] = ['pod', 'node', 'sourceIP', 'outcome', 'crossedNodes', 'snat'];

/** One question, as written in its block. */
export interface Question {
  /** Unique in the whole book (lower-case letters, digits and dashes). */
  id: string;
  /** The scene query (after `scene:`) the question is about. */
  scene: string;
  ask: Ask;
  prompt: string;
  /** Shown after the answer: why, whichever option the learner chose. */
  explain?: string;
  /**
   * Which of the computed options to offer (content/AUTHORING.md, "Check yourself"): option
   * ids (`dropped`, `node:node-1`, `ip:10.244.1.1`) and, for `sourceIP`, groups
   * ({@link SOURCE_IP_GROUPS}). Absent: every option.
   */
  options?: string[];
}

/**
 * Groups of `sourceIP` options an `options:` list may name: the client's address, the nodes'
 * own addresses (InternalIP), the nodes' pod-network gateways (cni0 bridges), the balancer's
 * backend address.
 */
export const SOURCE_IP_GROUPS = ['client', 'nodes', 'bridges', 'balancer'] as const;

/** One of {@link SOURCE_IP_GROUPS}. */
export type SourceIPGroup = (typeof SOURCE_IP_GROUPS)[number];

/** One answer option. `id` is stable (`pod:default/web-…`, `node:node-1`, `ip:10.244.1.1`, `yes`, …). */
export interface QuestionOption {
  id: string;
  label: string;
}

const FIELDS = ['id', 'scene', 'ask', 'prompt', 'explain', 'options'] as const;
const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads a `question` block. Problems carry `file` and the line of the field concerned.
 * @returns the question when every field is valid, and the problems found.
 */
export function parseQuestion(
  block: YamlBlock,
  file: string,
): { question?: Question; problems: Problem[] } {
  const problems: Problem[] = block.yamlErrors.map((e) => ({
    file,
    line: e.line,
    message: `question block is not valid YAML: ${e.message}`,
  }));
  if (problems.length > 0) return { problems };
  const d = block.data;
  const at = (field: string, message: string) =>
    problems.push({ file, line: block.fieldLine(field), message });
  if (!isRecord(d)) {
    problems.push({ file, line: block.line, message: 'question block must be a YAML mapping' });
    return { problems };
  }
  for (const k of Object.keys(d))
    if (!(FIELDS as readonly string[]).includes(k))
      at(k, `question: unknown field "${k}" (fields: ${FIELDS.join(', ')})`);
  const str = (
    k: Exclude<(typeof FIELDS)[number], 'options'>,
    required: boolean,
  ): string | undefined => {
    const v = d[k];
    if (v === undefined || v === null) {
      if (required)
        problems.push({ file, line: block.line, message: `question: ${k} is required` });
      return undefined;
    }
    if (typeof v !== 'string' || v.trim() === '') {
      at(k, `question: ${k} must be a non-empty string`);
      return undefined;
    }
    return v.trim();
  };
  const id = str('id', true);
  if (id !== undefined && !ID.test(id))
    at('id', `question: id "${id}" must be lower-case letters and digits joined by dashes`);
  const scene = str('scene', true)?.replace(/^scene:/, '');
  const ask = str('ask', true);
  if (ask !== undefined && !(ASKS as readonly string[]).includes(ask))
    at('ask', `question: ask "${ask}" must be one of ${ASKS.join(', ')}`);
  const prompt = str('prompt', true);
  const explain = str('explain', false);
  const options = optionList(d['options'], (m) => at('options', m));
  if (problems.length > 0 || !id || !scene || !ask || !prompt) return { problems };
  return {
    question: {
      id,
      scene,
      ask: ask as Ask,
      prompt,
      ...(explain ? { explain } : {}),
      ...(options ? { options } : {}),
    },
    problems,
  };
}

/** `options:` as a list of names (a YAML list, or one comma-separated string), or undefined. */
function optionList(v: unknown, bad: (message: string) => void): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const items =
    typeof v === 'string' ? v.split(',') : Array.isArray(v) ? (v as unknown[]) : undefined;
  if (!items || items.some((x) => typeof x !== 'string' || x.trim() === '')) {
    bad('question: options must be a list of option ids or groups, e.g. [client, nodes]');
    return undefined;
  }
  const names = (items as string[]).map((x) => x.trim());
  if (names.length === 0) {
    bad('question: options must not be empty');
    return undefined;
  }
  return names;
}

/** `namespace/name` of the Pod with `ip`, if the cluster has one. */
function podAt(result: SceneResult, ip: string) {
  return result.cluster.pods.find((p) => p.ip === ip);
}

const OUTCOME_LABELS: Record<SceneResult['trace']['outcome']['kind'], string> = {
  delivered: 'delivered to a Pod',
  dropped: 'dropped',
  rejected: 'rejected',
  'timed-out': 'timed out',
  'no-address': 'no address to dial',
};

/** An option with the groups its address belongs to (sourceIP only). */
interface Candidate extends QuestionOption {
  groups: readonly string[];
}

function candidates(ask: Ask, result: SceneResult): Candidate[] {
  const { cluster } = result;
  switch (ask) {
    case 'pod': {
      const out: Candidate[] = [];
      for (const [key, eps] of Object.entries(cluster.endpoints)) {
        if (key !== result.serviceKey && !key.startsWith(`${result.serviceKey}:`)) continue;
        for (const e of eps) {
          const pod = podAt(result, e.ip);
          const id = pod ? `pod:${pod.namespace}/${pod.name}` : `pod:${e.ip}`;
          if (out.some((o) => o.id === id)) continue;
          out.push({
            id,
            label: `${pod?.name ?? e.podName ?? e.ip} (${e.ip}, ${e.nodeName})`,
            groups: [],
          });
        }
      }
      return [...out, { id: 'none', label: 'no Pod', groups: [] }];
    }
    case 'node':
      return [
        ...cluster.nodes.map((n) => ({
          id: `node:${n.name}`,
          label: `${n.name} (${n.internalIP})`,
          groups: [],
        })),
        { id: 'none', label: 'no node', groups: [] },
      ];
    case 'sourceIP': {
      const owners = new Map<string, { who: string[]; groups: SourceIPGroup[] }>();
      const add = (ip: string, owner: string, group: SourceIPGroup) => {
        const o = owners.get(ip) ?? { who: [], groups: [] };
        o.who.push(owner);
        if (!o.groups.includes(group)) o.groups.push(group);
        owners.set(ip, o);
      };
      const first = result.trace.steps[0]?.before.src;
      for (const c of cluster.clients)
        if (first === undefined || c.address === first)
          add(c.address, `the client, ${c.name}`, 'client');
      for (const n of cluster.nodes) add(n.internalIP, n.name, 'nodes');
      for (const n of cluster.nodes) add(n.bridgeIP, `${n.name}'s cni0 bridge`, 'bridges');
      for (const lb of cluster.loadBalancers)
        if (lb.service === result.serviceKey)
          add(lb.backendAddress, `load balancer ${lb.name}`, 'balancer');
      return [...owners].map(([ip, o]) => ({
        id: `ip:${ip}`,
        label: `${ip} (${o.who.join(', ')})`,
        groups: o.groups,
      }));
    }
    case 'outcome':
      return Object.entries(OUTCOME_LABELS).map(([id, label]) => ({ id, label, groups: [] }));
    case 'crossedNodes':
    case 'snat':
      return [
        { id: 'yes', label: 'yes', groups: [] },
        { id: 'no', label: 'no', groups: [] },
      ];
  }
}

/**
 * The options a learner chooses from, built from the scene's model result:
 * - `pod`: every Pod behind the traced Service (its endpoints, ready or not) + "no Pod";
 * - `node`: every node + "no node";
 * - `sourceIP`: the client's address, each node's InternalIP, each node's pod-network gateway
 *   (the first address of its podCIDR, held by its cni0 bridge), the balancer's backend
 *   address; one option per address, labelled with its owners (`192.168.0.11 (node-1)`);
 * - `outcome`: delivered, dropped, rejected, timed out, no address to dial;
 * - `crossedNodes`, `snat`: yes / no.
 *
 * With `options` (the block's `options:`), only the options it names, by id or (sourceIP) by
 * group, in the order above.
 */
export function questionOptions(
  q: Pick<Question, 'ask'> & { options?: readonly string[] | undefined },
  result: SceneResult,
): QuestionOption[] {
  const all = candidates(q.ask, result);
  const keep = q.options;
  return all
    .filter((c) => !keep || keep.includes(c.id) || c.groups.some((g) => keep.includes(g)))
    .map(({ id, label }) => ({ id, label }));
}

/**
 * The names in a question's `options:` that are neither the id of one of its computed options
 * nor (sourceIP) a group, for the content check.
 */
export function unknownOptionNames(
  q: Pick<Question, 'ask'> & { options?: readonly string[] | undefined },
  result: SceneResult,
): string[] {
  const all = candidates(q.ask, result);
  const groups: readonly string[] = q.ask === 'sourceIP' ? SOURCE_IP_GROUPS : [];
  return (q.options ?? []).filter((n) => !groups.includes(n) && !all.some((c) => c.id === n));
}

/**
 * The right option's id, computed from `result.trace.outcome`; null when the question does
 * not apply to this outcome (`sourceIP`, `crossedNodes` or `snat` of a connection that was
 * not delivered).
 */
export function answerQuestion(q: Pick<Question, 'ask'>, result: SceneResult): string | null {
  const o = result.trace.outcome;
  switch (q.ask) {
    case 'outcome':
      return o.kind;
    case 'pod':
      return o.kind === 'delivered' ? `pod:${o.pod}` : 'none';
    case 'node':
      return o.kind === 'delivered' ? `node:${o.node}` : 'none';
    case 'sourceIP':
      return o.kind === 'delivered' ? `ip:${o.sourceIPSeenByPod}` : null;
    case 'crossedNodes':
      return o.kind === 'delivered' ? (o.crossedNodes ? 'yes' : 'no') : null;
    case 'snat':
      return o.kind === 'delivered' ? (o.snat ? 'yes' : 'no') : null;
  }
}

/** Seeds tried by {@link answersBySeed}. */
export const SEEDS = Array.from({ length: 16 }, (_, i) => i + 1);

/**
 * The answer for each seed 1…16 (seed from the link when it sets one: then only that seed).
 * A seed whose scene does not resolve maps to `error: …`.
 */
export function answersBySeed(q: Question, options: ResolveOptions = {}): Map<number, string> {
  const parsed = parseSceneQuery(q.scene);
  const out = new Map<number, string>();
  if (parsed.errors.length > 0) return out;
  const seeds = parsed.link.seed !== undefined ? [parsed.link.seed] : SEEDS;
  for (const seed of seeds) {
    const r = resolveSceneLink({ ...parsed.link, seed }, options);
    out.set(
      seed,
      r.ok ? String(answerQuestion(q, r.scene.result)) : `error: ${r.errors[0]?.message ?? ''}`,
    );
  }
  return out;
}

/**
 * Whether the question has one answer whatever the seed: the same for seeds 1…16 when the link
 * sets no seed (pinned `lbTarget`/`endpoint` make it so). `objects` is not needed: the link's
 * `scenario` names them, and `loadScenario` loads them.
 */
export function isDeterministic(q: Question, options: ResolveOptions = {}): boolean {
  return new Set(answersBySeed(q, options).values()).size === 1;
}
