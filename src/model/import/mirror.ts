/**
 * Older clusters (and some tools) give `Endpoints` (v1) instead of EndpointSlices. Kubernetes'
 * EndpointSlice mirroring controller turns each into EndpointSlices
 * (`pkg/controller/endpointslicemirroring`); this does the same for the model, for a Service
 * that has no EndpointSlice of its own: `subsets[].addresses` become ready endpoints,
 * `notReadyAddresses` not-ready ones, with the subset's ports, nodeName and targetRef.
 */
import type { Endpoints } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import type { ScenarioObject } from '../k8s/objects';

/** The result of {@link mirrorEndpoints}. */
export interface Mirrored {
  /** The objects, with each mirrored Endpoints replaced by its EndpointSlices. */
  objects: ScenarioObject[];
  /** One plain sentence per Endpoints mirrored. */
  notes: string[];
}

type Obj = {
  kind?: unknown;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
};

/** Mirrors `Endpoints` objects into EndpointSlices where no EndpointSlice exists. Never throws. */
export function mirrorEndpoints(objects: readonly unknown[]): Mirrored {
  const out: ScenarioObject[] = [];
  const notes: string[] = [];
  const sliceFor = new Set(
    objects
      .filter((o): o is Obj => !!o && typeof o === 'object' && (o as Obj).kind === 'EndpointSlice')
      .map((o) => {
        // Fields of the wrong shape must not throw here (the validator reports them).
        const ns: unknown = o.metadata?.namespace;
        const svc: unknown = o.metadata?.labels?.['kubernetes.io/service-name'];
        return `${typeof ns === 'string' ? ns : 'default'}/${typeof svc === 'string' ? svc : ''}`;
      }),
  );
  for (const o of objects) {
    if (!o || typeof o !== 'object' || (o as Obj).kind !== 'Endpoints') {
      out.push(o as ScenarioObject);
      continue;
    }
    const ep = o as Endpoints & Obj;
    const ns = ep.metadata?.namespace ?? 'default';
    const name = ep.metadata?.name ?? '';
    if (sliceFor.has(`${ns}/${name}`)) {
      notes.push(`Endpoints ${ns}/${name} skipped: its EndpointSlice is given`);
      continue;
    }
    (ep.subsets ?? []).forEach((subset, i) => {
      const address = (
        a: {
          ip: string;
          nodeName?: string;
          targetRef?: { kind?: string; name?: string; namespace?: string };
        },
        ready: boolean,
      ) => ({
        addresses: [a.ip],
        conditions: { ready, serving: ready, terminating: false },
        ...(a.nodeName ? { nodeName: a.nodeName } : {}),
        ...(a.targetRef ? { targetRef: a.targetRef } : {}),
      });
      const slice: EndpointSlice & { kind: 'EndpointSlice' } = {
        apiVersion: 'discovery.k8s.io/v1',
        kind: 'EndpointSlice',
        metadata: {
          name: `${name}-mirrored-${i}`,
          namespace: ns,
          labels: {
            'kubernetes.io/service-name': name,
            'endpointslice.kubernetes.io/managed-by': 'endpointslicemirroring-controller.k8s.io',
          },
        },
        addressType: 'IPv4',
        ports: (subset.ports ?? []).map((p) => ({
          ...(p.name !== undefined ? { name: p.name } : {}),
          port: p.port,
          protocol: p.protocol ?? 'TCP',
        })),
        endpoints: [
          ...(subset.addresses ?? []).map((a) => address(a, true)),
          ...(subset.notReadyAddresses ?? []).map((a) => address(a, false)),
        ],
      };
      out.push(slice);
    });
    notes.push(
      `Endpoints ${ns}/${name} mirrored into EndpointSlices, as the EndpointSlice mirroring controller does`,
    );
  }
  return { objects: out, notes };
}
