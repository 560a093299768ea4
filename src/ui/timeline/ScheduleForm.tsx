import { useId, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { SCHEDULE_FORM_MAX_AT_MS } from '../../model/time/limits';
import { EVENT_KINDS, EVENT_SPECS, makeEvent } from '../../model/time/registry';
import type { EventArg, EventSpec } from '../../model/time/registry';
import type { TimelineEvent, TimelineEventKind } from '../../model/time/types';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import { schedule, toggleNodeNow } from './commands';
import { useDerived, useSimMs } from './context';
import { epochAt } from '../../store/timelineDerive';
import { EVENT_WORDS, clockText, eventText, seconds } from './format';
import { laneNodes } from './lanes';
import { checkInt } from './validate';

/** The label of the field that holds each kind's argument (the time model's registry). */
const FIELD_LABEL: Record<EventSpec['field'], string> = {
  node: 'Node',
  pod: 'Pod',
  replicas: 'Replicas',
  policy: 'Policy',
};

/** The latest "At" the form offers, seconds. */
const MAX_AT_S = SCHEDULE_FORM_MAX_AT_MS / 1000;

const selectEvents = (s: Store) => s.time.events;

/**
 * Failures and changes at a chosen time: a form that adds an event (fail, restore, drain,
 * uncordon, scale a node down, kill pod, scale, set policy) at a time in seconds, the list of
 * scheduled events (each removable; one the run leaves out says why), and quick buttons that
 * fail or restore a node at the current time. It works without a timeline too (when the model
 * could not simulate), from the scenario's own nodes and Pods, so a bad event can always be
 * removed. "Kill pod" offers the Pods that back the Service at the chosen time.
 */
export function ScheduleForm() {
  const store = useAppStoreApi();
  const derived = useDerived();
  const timeline = derived.ok ? derived.timeline : null;
  const objects = derived.input.objects;
  const simMs = useSimMs();
  const events = useAppStore(selectEvents);
  const id = useId();
  const nodes = useMemo(
    () =>
      timeline
        ? laneNodes(timeline)
        : objects.filter((o) => o.kind === 'Node').map((o) => o.metadata?.name ?? ''),
    [timeline, objects],
  );
  const skipped = useMemo(
    () => new Map(derived.skipped.map((x) => [x.index, x.reason])),
    [derived.skipped],
  );
  const [kind, setKind] = useState<TimelineEventKind>('fail-node');
  const [target, setTarget] = useState('');
  const [replicas, setReplicas] = useState('3');
  const [policy, setPolicy] = useState<'Cluster' | 'Local'>(
    derived.input.scene.externalTrafficPolicy === 'Cluster' ? 'Local' : 'Cluster',
  );
  const [at, setAt] = useState('30');
  const [error, setError] = useState<{ field: 'at' | 'replicas' | 'target'; text: string } | null>(
    null,
  );
  const [status, setStatus] = useState('');
  // The Pods that back the Service at the chosen time (the clock's, while "At" is not a number).
  const atChecked = checkInt(at, { name: 'Time', min: 0, max: MAX_AT_S });
  const podsAtMs = atChecked.ok ? atChecked.value * 1000 : simMs;
  const pods = useMemo(() => {
    if (!timeline)
      return objects
        .filter((o) => o.kind === 'Pod')
        .map((o) => `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? ''}`)
        .sort();
    return (epochAt(timeline, podsAtMs)?.state.pods ?? [])
      .filter((p) => p.phase !== 'Terminating')
      .map((p) => p.key)
      .sort();
  }, [timeline, objects, podsAtMs]);

  // The argument's field and check come from the model's registry (src/model/time/registry.ts).
  const { field, arg } = EVENT_SPECS[kind];
  const named = arg.type === 'name' ? arg.of : null;
  const targets = named === 'node' ? nodes : named === 'pod' ? pods : [];
  const chosen = targets.includes(target) ? target : (targets[0] ?? '');
  const failedNow = (timeline && epochAt(timeline, simMs)?.failedNodes) || [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = checkInt(at, { name: 'Time', min: 0, max: MAX_AT_S, unit: 'seconds' });
    if (!t.ok) return setError({ field: 'at', text: t.message });
    const ms = t.value * 1000;
    let value: string | number;
    if (arg.type === 'name') {
      if (!chosen)
        return setError({
          field: 'target',
          text:
            arg.of === 'pod'
              ? `No Pod backs the Service at ${clockText(ms)}: there is nothing to kill then.`
              : 'There is nothing to choose as a target.',
        });
      value = chosen;
    } else if (arg.type === 'int') {
      const n = checkInt(replicas, { name: FIELD_LABEL[field], min: arg.min, max: arg.max });
      if (!n.ok) return setError({ field: 'replicas', text: n.message });
      value = n.value;
    } else value = policy;
    const event = makeEvent(kind, ms, value as EventArg<typeof kind>) as TimelineEvent;
    setError(null);
    schedule(store, event);
    setStatus(`Scheduled: ${eventText(event)} at ${clockText(ms)}.`);
  };

  const fieldError = (which: 'at' | 'replicas' | 'target') =>
    error?.field === which ? `${id}-error` : undefined;

  return (
    <div className="schedule" data-testid="schedule">
      <div className="quick" role="group" aria-label="Now">
        {nodes.map((n) => {
          const down = failedNow.includes(n);
          return (
            <button
              key={n}
              type="button"
              className={down ? 'danger' : undefined}
              onClick={() => {
                toggleNodeNow(store, n, down);
                setStatus(`Scheduled: ${down ? 'restore' : 'fail'} ${n} at ${clockText(simMs)}.`);
              }}
              data-quick={`${down ? 'restore' : 'fail'}-${n}`}
            >
              {down ? `Restore ${n} now` : `Fail ${n} now`}
            </button>
          );
        })}
      </div>
      <form className="schedule-form" onSubmit={submit} aria-label="Schedule a change" noValidate>
        <label>
          Action{' '}
          <select
            value={kind}
            onChange={(e) => setKind(e.target.value as TimelineEventKind)}
            data-testid="schedule-action"
          >
            {EVENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {EVENT_WORDS[k].label}
              </option>
            ))}
          </select>
        </label>
        {arg.type === 'name' ? (
          <label>
            {FIELD_LABEL[field]}{' '}
            <select
              value={chosen}
              onChange={(e) => setTarget(e.target.value)}
              aria-describedby={fieldError('target')}
              data-testid="schedule-target"
            >
              {targets.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </label>
        ) : arg.type === 'int' ? (
          <label>
            {FIELD_LABEL[field]}{' '}
            <input
              type="text"
              inputMode="numeric"
              size={4}
              value={replicas}
              onChange={(e) => setReplicas(e.target.value)}
              aria-invalid={error?.field === 'replicas' ? true : undefined}
              aria-describedby={fieldError('replicas')}
              data-testid="schedule-replicas"
            />
          </label>
        ) : (
          <label>
            {FIELD_LABEL[field]}{' '}
            <select
              value={policy}
              onChange={(e) => setPolicy(e.target.value as 'Cluster' | 'Local')}
            >
              {arg.options.map((o) => (
                <option key={o} value={o}>
                  {o}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          At (seconds){' '}
          <input
            type="text"
            inputMode="numeric"
            size={5}
            value={at}
            onChange={(e) => setAt(e.target.value)}
            aria-invalid={error?.field === 'at' ? true : undefined}
            aria-describedby={fieldError('at')}
            data-testid="schedule-at"
          />
        </label>
        <button type="submit" className="primary" data-testid="schedule-add">
          Add
        </button>
        <button type="button" onClick={() => setAt(String(Math.floor(simMs / 1000)))}>
          Use t = {Math.floor(simMs / 1000)} s
        </button>
      </form>
      <p className="form-error" id={`${id}-error`} aria-live="polite">
        {error?.text ?? ''}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {status}
      </p>
      {events.length === 0 ? (
        <p className="empty">
          No changes scheduled: the run only provisions the Service and sends the workload.
        </p>
      ) : (
        <ol className="event-list" aria-label="Scheduled changes" data-testid="event-list">
          {events.map((e, i) => (
            <li
              key={`${i}-${e.at}-${e.kind}`}
              data-event-kind={e.kind}
              data-event-at={e.at}
              data-skipped={skipped.has(i) ? 'true' : undefined}
            >
              <span className="mono">t = {seconds(e.at)}</span> {eventText(e)}{' '}
              {skipped.has(i) && <span className="skipped">(skipped: {skipped.get(i)}) </span>}
              <button
                type="button"
                className="link"
                aria-label={`Remove: ${eventText(e)} at t = ${seconds(e.at)}`}
                onClick={() => store.getState().removeEvent(i)}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
