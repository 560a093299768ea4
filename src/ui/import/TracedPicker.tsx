import { selectResult, selectScene, useAppStore, useAppStoreApi } from '../../store';
import { run, setPort } from '../../store/commands';

/**
 * Which Service and which of its ports the trace follows, when the cluster offers a choice:
 * several Services, or a Service with several ports. Changing either re-runs the model.
 */
export function TracedPicker() {
  const store = useAppStoreApi();
  const result = useAppStore(selectResult);
  const scene = useAppStore(selectScene);
  if (!result) return null;
  const services = result.cluster.services;
  const svc = services.find((s) => `${s.namespace}/${s.name}` === result.serviceKey);
  if (!svc || (services.length < 2 && svc.ports.length < 2)) return null;
  const port = scene.port ?? svc.ports[0]?.name ?? '';
  return (
    <div className="import-traced" data-testid="traced-picker">
      {services.length > 1 && (
        <label>
          Service to trace{' '}
          <select
            value={result.serviceKey}
            onChange={(e) => {
              // Another Service has other ports: start from its first one.
              const next = { ...store.getState().scene, service: e.target.value };
              delete next.port;
              store.getState().setScene(next, 'reset');
            }}
          >
            {services.map((s) => (
              <option key={`${s.namespace}/${s.name}`} value={`${s.namespace}/${s.name}`}>
                {s.namespace}/{s.name} ({s.type})
              </option>
            ))}
          </select>
        </label>
      )}{' '}
      {svc.ports.length > 1 && (
        <label>
          Port{' '}
          <select value={port} onChange={(e) => run(store, setPort(e.target.value))}>
            {svc.ports.map((p) => (
              <option key={p.name} value={p.name}>
                {p.name || '(unnamed)'} {p.port}/{p.protocol.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
