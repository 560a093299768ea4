/**
 * `npm run gen-cluster -- --nodes 1000 --pods 10000 [--spread-over N] [--format yaml|json] [-o FILE]`:
 * writes a generated cluster ({@link generatedCluster}, src/model/scenario/generated.ts) the way
 * `kubectl get svc,endpointslices,nodes,pods -o yaml` prints a cluster: one `v1` `List` whose
 * `items` are the Services, then the EndpointSlices, the Nodes and the Pods (kubectl prints
 * the resource types in the order they are named), each object's keys sorted (kubectl's printer
 * goes through JSON, sigs.k8s.io/yaml, which sorts map keys), and `metadata.resourceVersion: ""`
 * on the List. The generator's own kinds that kubectl would not print (KubeProxyConfiguration,
 * CloudLoadBalancer, Client) follow as further items, so the file loads into the exact cluster
 * the generator describes (`--kubectl-only` leaves them out; the importer then assumes them).
 *
 * Objects carry only what the model reads: a real cluster's objects also carry uid,
 * creationTimestamp, resourceVersion, ownerReferences and much more status, so a real file of
 * the same size in nodes and Pods is several times longer (and slower to parse).
 *
 * `--format json` prints the List as `kubectl … -o json` does (4-space indent). Without `-o`
 * the text goes to standard output. Errors (bad numbers, an unknown option) go to stderr
 * with exit status 2.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { stringify } from 'yaml';
import type { ScenarioObject } from '../src/model/k8s/objects.ts';
import { generatedCluster } from '../src/model/scenario/generated.ts';
import type { GeneratedClusterOptions } from '../src/model/scenario/generated.ts';

/** Options for {@link clusterManifest}: the generator's, plus the output's shape. */
export interface ClusterManifestOptions extends GeneratedClusterOptions {
  /** `yaml` (default) as `kubectl get -o yaml` prints it, or `json` as `-o json` does. */
  format?: 'yaml' | 'json';
  /** Leave out the kinds kubectl would not print (KubeProxyConfiguration, CloudLoadBalancer, Client). */
  kubectlOnly?: boolean;
}

/** The order `kubectl get svc,endpointslices,nodes,pods` prints the resource types in. */
const KUBECTL_ORDER = ['Service', 'EndpointSlice', 'Node', 'Pod'];

/**
 * The generated cluster's objects as one `kind: List`: kubectl's four kinds first, in
 * kubectl's order, then (unless `kubectlOnly`) the generator's other objects in its order.
 */
export function clusterList(opts: Omit<ClusterManifestOptions, 'format'>): {
  apiVersion: 'v1';
  kind: 'List';
  items: ScenarioObject[];
  metadata: { resourceVersion: string };
} {
  const objects = generatedCluster(opts);
  const rank = (o: ScenarioObject) => {
    const i = KUBECTL_ORDER.indexOf(o.kind);
    return i < 0 ? KUBECTL_ORDER.length : i;
  };
  const items = objects
    .map((o, i) => ({ o, i }))
    .filter(({ o }) => !opts.kubectlOnly || rank(o) < KUBECTL_ORDER.length)
    .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
    .map(({ o }) => o);
  return { apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } };
}

/**
 * The manifest text of a generated cluster (see the file's comment for its shape).
 * @throws {RangeError} for sizes {@link generatedCluster} refuses (nodes 1–1,023, pods 0–60,000).
 */
export function clusterManifest(opts: ClusterManifestOptions): string {
  const list = clusterList(opts);
  if (opts.format === 'json') return `${JSON.stringify(list, null, 4)}\n`;
  return stringify(list, { sortMapEntries: true, lineWidth: 0, indentSeq: false });
}

const USAGE =
  'usage: npm run gen-cluster -- --nodes N --pods P [--spread-over S] [--format yaml|json] [--kubectl-only] [-o FILE]';

function wholeNumber(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{1,9}$/.test(v)) throw new RangeError(`--${name} ${v}: must be a whole number`);
  return Number(v);
}

/** Runs the command line; returns the exit status. */
export function main(argv: string[]): number {
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        nodes: { type: 'string' },
        pods: { type: 'string' },
        'spread-over': { type: 'string' },
        format: { type: 'string' },
        'kubectl-only': { type: 'boolean' },
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const nodes = wholeNumber(values.nodes, 'nodes');
    const pods = wholeNumber(values.pods, 'pods');
    if (nodes === undefined || pods === undefined)
      throw new RangeError('--nodes and --pods are required');
    const spreadOver = wholeNumber(values['spread-over'], 'spread-over');
    const format = values.format ?? 'yaml';
    if (format !== 'yaml' && format !== 'json')
      throw new RangeError(`--format ${format}: must be yaml or json`);
    const text = clusterManifest({
      nodes,
      pods,
      ...(spreadOver !== undefined ? { spreadOver } : {}),
      format,
      kubectlOnly: values['kubectl-only'] ?? false,
    });
    if (values.output) writeFileSync(values.output, text);
    else process.stdout.write(text);
    return 0;
  } catch (e) {
    process.stderr.write(`gen-cluster: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    return 2;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = main(process.argv.slice(2));
