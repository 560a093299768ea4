/**
 * `npm run bench`: loading + validating + filling a pasted cluster against the `yaml` library
 * alone parsing the same text (issue 11: the import must take ≤ 3× the parse). The text is a
 * generated cluster (src/model/scenario/generated.ts) as `yaml` prints it, one document per
 * object, as `kubectl get … -o yaml` would give it. The ratio is in vitest's summary
 * ("yaml parse … x faster than validate + load + fill"); it is stable across machines, the
 * absolute times are not.
 */
import { bench, describe } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { generatedCluster } from '../scenario/generated';
import { fillGaps } from './fill';
import { validateAndLoad } from './validate';

const SIZES = [
  { nodes: 10, pods: 1_000 },
  { nodes: 100, pods: 1_000 },
  { nodes: 1_000, pods: 10_000 },
];

for (const { nodes, pods } of SIZES) {
  const text = generatedCluster({ nodes, pods })
    .map((o) => stringify(o))
    .join('---\n');
  const mb = (new TextEncoder().encode(text).length / 1024 / 1024).toFixed(2);
  // One parse of 5 MB takes seconds: few iterations, after one warm-up.
  const options =
    nodes >= 1_000
      ? { iterations: 3, warmupIterations: 1, time: 0, warmupTime: 0 }
      : { iterations: 5, warmupIterations: 2, time: 0, warmupTime: 0 };
  describe(`${nodes} nodes / ${pods} Pods (${mb} MiB of YAML)`, () => {
    bench(
      'yaml parse (parseAllDocuments + toJS)',
      () => {
        for (const doc of parseAllDocuments(text)) doc.toJS();
      },
      options,
    );
    bench(
      'validate + load + fill (validateAndLoad + fillGaps)',
      () => {
        const { objects } = validateAndLoad(text);
        fillGaps(objects);
      },
      options,
    );
  });
}
