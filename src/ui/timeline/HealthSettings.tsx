import { useId, useState } from 'react';
import type { HealthCheckSettings } from '../../model/time/types';
import { useAppStoreApi } from '../../store';
import { useDerived } from './context';
import { checkHealthCheck, draftOf } from './validate';
import type { HealthCheckDraft, HealthCheckProblems } from './validate';

interface Props {
  /** The model's defaults for this scenario (what "Reset" brings back). */
  defaults: HealthCheckSettings;
}

type NumberField = Exclude<keyof HealthCheckDraft, 'clusterTarget'>;

const FIELDS: { key: NumberField; label: string; unit: string; cloud: string }[] = [
  { key: 'intervalSeconds', label: 'Interval', unit: 's', cloud: 'checkIntervalSec' },
  { key: 'timeoutSeconds', label: 'Timeout', unit: 's', cloud: 'timeoutSec' },
  {
    key: 'healthyThreshold',
    label: 'Healthy threshold',
    unit: 'probes',
    cloud: 'healthyThreshold',
  },
  {
    key: 'unhealthyThreshold',
    label: 'Unhealthy threshold',
    unit: 'probes',
    cloud: 'unhealthyThreshold',
  },
];

/**
 * The balancer's health-check settings, starting from the model's defaults (modelled on GCP's)
 * and the changes in the store. Each change is checked as it is typed: a valid form applies at
 * once (the timeline recomputes); an invalid field keeps its text and says what is wrong under
 * it, and the timeline keeps the last valid settings until it is fixed. It works while the
 * model cannot simulate too (e.g. a link whose timeout is longer than its interval), so the
 * settings can be mended.
 */
export function HealthSettings({ defaults }: Props) {
  const store = useAppStoreApi();
  const derived = useDerived();
  const id = useId();
  const [draft, setDraft] = useState<HealthCheckDraft>(() =>
    draftOf({ ...defaults, ...store.getState().time.healthCheck }),
  );
  const [problems, setProblems] = useState<HealthCheckProblems>({});
  const local = derived.input.scene.externalTrafficPolicy === 'Local';

  const update = (next: HealthCheckDraft) => {
    setDraft(next);
    const checked = checkHealthCheck(next);
    if (!checked.ok) return setProblems(checked.problems);
    setProblems({});
    const overrides: Partial<HealthCheckSettings> = {};
    for (const k of Object.keys(checked.value) as (keyof HealthCheckSettings)[])
      if (checked.value[k] !== defaults[k]) Object.assign(overrides, { [k]: checked.value[k] });
    store.getState().setHealthCheck(overrides);
  };

  return (
    <form
      className="hc-form"
      aria-label="Health-check settings"
      data-testid="hc-form"
      data-valid={Object.keys(problems).length === 0}
      onSubmit={(e) => e.preventDefault()}
    >
      <p className="note" data-testid="hc-defaults-note">
        Defaults modelled on GCP: what cloud-provider-gcp creates (every 8 s, timeout 1 s, healthy
        1, unhealthy 3), unless the scenario’s balancer sets its own. Other clouds differ — Azure’s
        cloud-provider probes every 5 s and takes a node out after 2 failures — so the same scenario
        on AKS drains a dead node sooner; edit them to match your cloud.
      </p>
      <div className="hc-fields">
        {FIELDS.map((f) => {
          const problem = problems[f.key];
          const inputId = `${id}-${f.key}`;
          return (
            <div key={f.key} className={`field${problem ? ' invalid' : ''}`}>
              <label htmlFor={inputId}>
                {f.label} <span className="muted">({f.unit})</span>
              </label>
              <input
                id={inputId}
                type="text"
                inputMode="numeric"
                size={5}
                value={draft[f.key]}
                aria-invalid={problem ? true : undefined}
                aria-describedby={`${inputId}-hint ${inputId}-error`}
                onChange={(e) => update({ ...draft, [f.key]: e.target.value })}
                data-field={f.key}
              />
              <span className="hint" id={`${inputId}-hint`}>
                default {defaults[f.key]} · GCP <code>{f.cloud}</code>
              </span>
              <span className="error" id={`${inputId}-error`} aria-live="polite">
                {problem ?? ''}
              </span>
            </div>
          );
        })}
      </div>
      <fieldset className="radio-group" disabled={local} aria-describedby={`${id}-target-note`}>
        <legend>What the balancer probes under externalTrafficPolicy: Cluster</legend>
        <div className="radios">
          {(['healthz', 'nodePort'] as const).map((t) => (
            <label key={t}>
              <input
                type="radio"
                name={`${id}-target`}
                value={t}
                checked={draft.clusterTarget === t}
                onChange={() => update({ ...draft, clusterTarget: t })}
              />
              {t === 'healthz' ? (
                <span>
                  kube-proxy <code>/healthz</code> on port 10256
                </span>
              ) : (
                <span>a TCP connect to the NodePort</span>
              )}
            </label>
          ))}
        </div>
        <p className="note" id={`${id}-target-note`}>
          {local
            ? 'Under Local the balancer always asks healthCheckNodePort: 200 with the node’s local endpoint count, or 503 with none.'
            : '/healthz answers 503 once the node is being deleted (KEP-3836); a NodePort check only notices a node that is gone.'}{' '}
          Default: {defaults.clusterTarget === 'healthz' ? '/healthz' : 'NodePort'}.
        </p>
      </fieldset>
      <button
        type="button"
        onClick={() => {
          setDraft(draftOf(defaults));
          setProblems({});
          store.getState().setHealthCheck({});
        }}
      >
        Reset to the defaults
      </button>
    </form>
  );
}
