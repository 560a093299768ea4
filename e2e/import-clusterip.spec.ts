import { expect, test } from './fixtures';
import { AppPage } from './pages/app';
import { loadObjects } from './pages/cluster';
import type { ScenarioObject } from '../src/model/k8s/objects';

/**
 * Issue 14: a Service written by hand, without `spec.clusterIP`, used to be accepted ("No
 * problems found") and then fail on Apply with `invalid IPv4 address: ""`. The importer now
 * gives it the address the API server would allocate (10.96.1.1 from the default
 * 10.96.0.0/12: src/model/import/allocate.ts) and the scene runs.
 */
const objects: ScenarioObject[] = [
  {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node-1' },
    spec: { podCIDR: '10.244.1.0/24' },
    status: {
      addresses: [{ type: 'InternalIP', address: '192.168.0.11' }],
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'web', ports: [{ containerPort: 8080 }] }] },
    status: {
      phase: 'Running',
      podIP: '10.244.1.5',
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      type: 'LoadBalancer',
      selector: { app: 'web' },
      ports: [{ port: 80, targetPort: 8080, nodePort: 31000 }],
    },
    status: { loadBalancer: { ingress: [{ ip: '203.0.113.7' }] } },
  },
];

test('a Service without spec.clusterIP is applied and traced', async ({ page }) => {
  const app = await new AppPage(page).goto();
  await loadObjects(page, objects);
  await expect(page.locator('.model-error')).toHaveCount(0);
  expect(await app.stepCount()).toBeGreaterThan(0);
});
