import { stringify } from 'yaml';
import { canonicalObjects } from '../src/model/scenario/canonical.ts';
const header =
  '# The canonical scenario: Service web (LoadBalancer, 80/TCP -> 8080, nodePort 31000) on three nodes,\n# pods on node-1 and node-3, load balancer 203.0.113.7. Kubernetes objects as kubectl prints them,\n# plus our own kinds (lbpath.example/v1alpha1) for the cloud load balancer and the clients.\n';
process.stdout.write(
  header +
    canonicalObjects()
      .map((o) => stringify(o))
      .join('---\n'),
);
