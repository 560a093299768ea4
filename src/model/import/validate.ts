/**
 * Validation of pasted manifests as the API server would validate them, all problems at
 * once, each with the line and column of the offending value.
 *
 * Reads YAML or JSON: one object, several YAML documents, a `kind: List` (`items[i]`) or a
 * top-level list. Kinds the model does not use are skipped silently (the loader names them).
 * Unlike `loadObjects` (./load.ts, which throws at the first syntax error), a document with a
 * syntax error becomes a problem and the other documents are still read.
 *
 * The rules and their sources are listed in ./checks.ts and ./service-checks.ts. Messages
 * are apimachinery `field.Error` lines (`<path>: Invalid value: <v>: <detail>` and so on),
 * except the warnings, which are ours and say so by their severity.
 */
import { LineCounter, parseAllDocuments } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { ScenarioObject } from '../k8s/objects';
import { Checker, checkEndpointSlice, checkNode, checkPod, isObj, prop, type Obj } from './checks';
import { nodeAt, positionOf } from './positions';
import {
  checkService,
  NodePortAllocator,
  podFacts,
  PodFactsIndex,
  selectorWarnings,
  type ServiceFacts,
} from './service-checks';
import { KINDS, skippedLabel } from './load';
import { checkServiceCIDR } from './servicecidr-checks';
import { checkIPFamilies } from './family-checks';
import { expandedOutOfBounds, MAX_NESTING, outOfBounds } from './bounds';
import { checkShape, normalize } from './shapes';
import { checkObjectMeta } from './meta-checks';
import { KUBECTL_TAGS } from './yamlTags';

/** One problem in the pasted text. */
export interface Problem {
  /** `error`: the API server would refuse the object (or the model cannot use it); `warning`: it would be accepted but probably is not what was meant. */
  severity: 'error' | 'warning';
  /** The object, e.g. `Service default/web`; `''` for a syntax error. */
  object: string;
  /**
   * The field in the input, relative to the object, e.g. `spec.ports[0].nodePort`; `''` for a
   * syntax error. For `loadBalancerSourceRanges` the message keeps upstream's spelling
   * `spec.LoadBalancerSourceRanges`.
   */
  path: string;
  /** The full kubectl-style line, e.g. `spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767`. */
  message: string;
  /** 1-based line of the offending value (or of the nearest enclosing one that is present). */
  line?: number;
  /** 1-based column of the same. */
  column?: number;
  /** The input the problem is in (a file name, `-` for standard input), when several were read together by {@link validateSources}. */
  source?: string;
}

/** The result of {@link validateText}. */
export interface Validated {
  /** The objects of the kinds the model uses, in input order, problems or not. */
  objects: ScenarioObject[];
  /** Every problem found, in input order. */
  problems: Problem[];
}

/** The result of {@link validateAndLoad}: {@link Validated} and what the loader skipped. */
export interface ValidatedAndLoaded extends Validated {
  /**
   * The values of kinds the model does not read, named as `loadObjects` names them
   * (`Deployment shop/web`, see {@link skippedLabel}), in input order. Empty, as
   * `loadObjects` would throw, when a document has a syntax error or none of the objects is of
   * a kind the model reads.
   */
  skipped: string[];
}

const NAMESPACED = new Set(['Service', 'EndpointSlice', 'Pod']);

interface Entry {
  obj: Obj;
  kind: string;
  label: string;
  namespace: string;
  doc: Document;
  node: YamlNode;
  checker: Checker;
  service?: ServiceFacts;
  /** The input it came from (see {@link Problem.source}), and that input's line index. */
  source: string | undefined;
  lineCounter: LineCounter;
}

/** A slot in output order: a document's syntax errors, or one object's findings. */
type Slot = { problems: Problem[] } | { entry: Entry };

function syntaxProblems(doc: Document): Problem[] {
  return doc.errors.map((err) => {
    const pos = err.linePos?.[0];
    const first = err.message.split('\n')[0] ?? '';
    const text = first.replace(/ at line \d+, column \d+:?$/, '');
    const problem: Problem = {
      severity: 'error',
      object: '',
      path: '',
      message: pos ? `line ${pos.line}, column ${pos.col}: ${text}` : text,
    };
    if (pos) {
      problem.line = pos.line;
      problem.column = pos.col;
    }
    return problem;
  });
}

/**
 * Flattens `kind: List` and top-level lists, keeping each value's node (objects, and the
 * plain scalars the loader counts as skipped; not null).
 */
function flatten(value: unknown, node: YamlNode, doc: Document, out: [unknown, YamlNode][]): void {
  const step = (items: unknown, prefix: string): void => {
    if (!Array.isArray(items)) return;
    // The list's node is found once; its items by index (a path per item would search the
    // list's map from its root again for every item).
    const list = prefix === '' ? { node, exact: true } : nodeAt(doc, node, prefix);
    items.forEach((item, i) => {
      const at = list.exact ? nodeAt(doc, list.node, `[${i}]`) : { node, exact: false };
      flatten(item, at.exact ? at.node : node, doc, out);
    });
  };
  if (isObj(value) && prop(value, 'kind') === 'List') step(prop(value, 'items'), 'items');
  else if (Array.isArray(value)) step(value, '');
  else if (value !== null && value !== undefined) out.push([value, node]);
}

function describe(obj: Obj): { kind: string; label: string; namespace: string } {
  const kind = prop(obj, 'kind');
  const meta = prop(obj, 'metadata');
  const name = prop(meta, 'name');
  const ns = prop(meta, 'namespace');
  const k = typeof kind === 'string' ? kind : '';
  const namespace = typeof ns === 'string' && ns ? ns : 'default';
  const n = typeof name === 'string' ? name : '';
  const label = NAMESPACED.has(k) ? `${k} ${namespace}/${n}` : n ? `${k} ${n}` : k;
  return { kind: k, label, namespace };
}

/** What {@link read} found: the slots in output order and the loader's skipped values. */
interface Read {
  slots: Slot[];
  skipped: string[];
  /** A document had a syntax error or could not be converted (the loader would throw). */
  broken: boolean;
}

/** The one parse of `text`: every document read once, for the checks and the loader alike. */
function read(text: string, source: string | undefined): Read {
  const lineCounter = new LineCounter();
  const slots: Slot[] = [];
  const skipped: string[] = [];
  let broken = false;
  const bounds = outOfBounds(text);
  if (bounds) {
    const { message, line, column } = bounds;
    const problem: Problem = { severity: 'error', object: '', path: '', message, line, column };
    return { slots: [{ problems: [withSource(problem, source)] }], skipped, broken: true };
  }
  const options = { lineCounter, logLevel: 'error' as const, customTags: KUBECTL_TAGS };
  for (const doc of parseAllDocuments(text, options)) {
    if (doc.errors.length > 0) {
      slots.push({ problems: syntaxProblems(doc).map((p) => withSource(p, source)) });
      broken = true;
      continue;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 1000 });
    } catch (e) {
      // e.g. an alias bomb: `toJS` refuses excessive alias expansion.
      const message = e instanceof Error ? e.message : String(e);
      slots.push({
        problems: [withSource({ severity: 'error', object: '', path: '', message }, source)],
      });
      broken = true;
      continue;
    }
    const expanded = expandedOutOfBounds(value);
    if (expanded) {
      const pos = doc.contents?.range ? lineCounter.linePos(doc.contents.range[0]) : undefined;
      const message =
        expanded === 'cycle'
          ? "an anchor's value contains itself (an alias inside its own anchor), so the document was not read"
          : `aliases nest the document more than ${2 * MAX_NESTING} levels deep, so it was not read`;
      const problem: Problem = { severity: 'error', object: '', path: '', message };
      if (pos) Object.assign(problem, { line: pos.line, column: pos.col });
      slots.push({ problems: [withSource(problem, source)] });
      broken = true;
      continue;
    }
    const root = doc.contents;
    if (!root) continue;
    const found: [unknown, YamlNode][] = [];
    flatten(value, root, doc, found);
    for (const [obj, node] of found) {
      if (!isObj(obj)) {
        skipped.push(skippedLabel(obj));
        continue;
      }
      const { kind, label, namespace } = describe(obj);
      if (!KINDS.has(kind)) {
        skipped.push(skippedLabel(obj));
        continue;
      }
      slots.push({
        entry: {
          // Checked as Go's decoder would hold it: a null list item is its zero value (so
          // `ports: [null]` is a port with no number, reported at its line), null fields absent.
          obj: normalize(kind, obj) as Obj,
          kind,
          label,
          namespace,
          doc,
          node,
          source,
          lineCounter,
          checker: new Checker(),
        },
      });
    }
  }
  return { slots, skipped, broken };
}

/**
 * The resource each kind is stored as, as the API server names it in an AlreadyExists error
 * (k8s.io/apimachinery/pkg/api/errors NewAlreadyExists: `%s %q already exists`, with the
 * group-qualified resource, e.g. `endpointslices.discovery.k8s.io`).
 */
const RESOURCE: Record<string, string> = {
  Service: 'services',
  EndpointSlice: 'endpointslices.discovery.k8s.io',
  Node: 'nodes',
  Pod: 'pods',
  ServiceCIDR: 'servicecidrs.networking.k8s.io',
};

/**
 * A second object with the same kind, namespace and name: `kubectl create` of such a List
 * fails on it with AlreadyExists (a cluster holds one), and the model would count it twice.
 */
function duplicates(entries: Entry[]): void {
  const seen = new Set<string>();
  for (const e of entries) {
    const resource = RESOURCE[e.kind];
    const name = prop(prop(e.obj, 'metadata'), 'name');
    if (!resource || typeof name !== 'string' || name === '') continue;
    const key = `${e.kind}\n${NAMESPACED.has(e.kind) ? e.namespace : ''}\n${name}`;
    if (seen.has(key))
      e.checker.error('metadata.name', `${resource} ${JSON.stringify(name)} already exists`);
    else seen.add(key);
  }
}

function check(entries: Entry[]): void {
  duplicates(entries);
  const alloc = new NodePortAllocator();
  for (const e of entries) {
    if (e.kind === 'Service') e.service = checkService(e.checker, e.obj, alloc);
    else if (e.kind === 'EndpointSlice') checkEndpointSlice(e.checker, e.obj);
    else if (e.kind === 'Node') checkNode(e.checker, e.obj);
    else if (e.kind === 'Pod') checkPod(e.checker, e.obj);
    else if (e.kind === 'ServiceCIDR') checkServiceCIDR(e.checker, e.obj);
    checkIPFamilies(e.checker, e.kind, e.obj);
    checkShape(e.checker, e.kind, e.obj);
    checkObjectMeta(e.checker, e.kind, e.obj);
  }
  const pods = new PodFactsIndex(
    entries.filter((e) => e.kind === 'Pod').map((e) => podFacts(e.obj)),
  );
  for (const e of entries) {
    if (e.service) selectorWarnings(e.checker, e.service, e.namespace, pods);
  }
}

/** `problem` with its `source` set, when there is one (a single pasted text has none). */
function withSource(problem: Problem, source: string | undefined): Problem {
  if (source !== undefined) problem.source = source;
  return problem;
}

function toProblems(e: Entry): Problem[] {
  return e.checker.findings.map((f) => {
    const problem: Problem = {
      severity: f.severity,
      object: e.label,
      path: f.path,
      message: f.message,
    };
    const pos = positionOf(e.doc, e.node, f.path, e.lineCounter);
    if (pos) {
      problem.line = pos.line;
      problem.column = pos.column;
    }
    return withSource(problem, e.source);
  });
}

/** One input read by {@link validateSources}: its name (a file name, `-` for stdin) and text. */
export interface Source {
  name: string;
  text: string;
}

/** The result of {@link validateSources}: {@link Validated}, with what was skipped per input. */
export interface ValidatedSources extends Validated {
  /** What the loader skipped (see {@link ValidatedAndLoaded.skipped}), with the input it was in. */
  skipped: { source: string; label: string }[];
}

/**
 * Validates several inputs as one cluster, from one parse each: the checks that span objects
 * (duplicate names, NodePorts allocated twice, selectors that match no Pod) see the objects of
 * every input, as `kubectl apply -f a.yaml -f b.yaml` sends them to one API server. Every
 * problem carries its input's name in `source`; lines and columns are that input's. Never
 * throws, as {@link validateAndLoad}.
 */
export function validateSources(sources: readonly Source[]): ValidatedSources {
  return validateAll(sources.map((s) => [s.name === '' ? undefined : s.name, s.text]));
}

function validateAll(inputs: [string | undefined, string][]): ValidatedSources {
  try {
    const reads = inputs.map(([name, text]) => ({ name, ...read(text, name) }));
    const slots = reads.flatMap((r) => r.slots);
    const entries = slots.flatMap((s) => ('entry' in s ? [s.entry] : []));
    check(entries);
    const broken = reads.some((r) => r.broken);
    return {
      objects: entries.map((e) => e.obj as unknown as ScenarioObject),
      problems: slots.flatMap((s) => ('entry' in s ? toProblems(s.entry) : s.problems)),
      skipped:
        broken || entries.length === 0
          ? []
          : reads.flatMap((r) => r.skipped.map((label) => ({ source: r.name ?? '', label }))),
    };
  } catch (e) {
    // Not expected (the fuzz tests look for it); a validator must not take the page down.
    const message = `internal error while validating: ${e instanceof Error ? e.message : String(e)}`;
    return {
      objects: [],
      problems: [{ severity: 'error', object: '', path: '', message }],
      skipped: [],
    };
  }
}

/**
 * Validates pasted YAML or JSON and loads it, from one parse. Never throws: syntax errors, API
 * validation errors and warnings all come back as {@link Problem}s, every one at once; the
 * objects are those {@link validateText} gives and `skipped` what `loadObjects` would skip.
 * Linear in the size of the text (the cross-object checks are indexed).
 */
export function validateAndLoad(text: string): ValidatedAndLoaded {
  const { objects, problems, skipped } = validateAll([[undefined, text]]);
  return { objects, problems, skipped: skipped.map((s) => s.label) };
}

/**
 * Validates pasted YAML or JSON. Never throws: syntax errors, API validation errors and
 * warnings all come back as {@link Problem}s, every one at once.
 */
export function validateText(text: string): Validated {
  const { objects, problems } = validateAndLoad(text);
  return { objects, problems };
}
