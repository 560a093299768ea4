import { memo, useId, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { scaleBand } from 'd3-scale';
import type { ConnectionStats, ShareRow } from '../../model/time/types';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store, TimeWorkload } from '../../store';
import { useTimeline, useTimeStatus } from './context';
import { count, percent, plural, pointsDiff, seconds } from './format';
import { linearScale, nice } from './scale';
import { VIEW_WORKLOAD_RANGES } from '../../model/time/limits';
import { checkInt } from './validate';

const selectWorkload = (s: Store) => s.time.workload;

interface Draft {
  count: string;
  periodS: string;
  holdS: string;
  seed: string;
  client: string;
  longLived: string;
}

type DraftErrors = Partial<Record<keyof Draft, string>>;

/** Checks the workload form; every message names its field and keeps the text. */
function checkDraft(
  d: Draft,
): { ok: true; value: TimeWorkload } | { ok: false; errors: DraftErrors } {
  const r = VIEW_WORKLOAD_RANGES;
  const n = checkInt(d.count, { name: 'Connections', ...r.count });
  // The form takes whole seconds; the ranges are in ms.
  const p = checkInt(d.periodS, {
    name: 'Period',
    min: Math.ceil(r.periodMs.min / 1000),
    max: r.periodMs.max / 1000,
    unit: 'seconds',
  });
  const h = checkInt(d.holdS, {
    name: 'Held open',
    min: r.holdMs.min / 1000,
    max: r.holdMs.max / 1000,
    unit: 'seconds',
  });
  const s = checkInt(d.seed, { name: 'Seed', ...r.seed });
  const errors: DraftErrors = {};
  if (!n.ok) errors.count = n.message;
  if (!p.ok) errors.periodS = p.message;
  if (!h.ok) errors.holdS = h.message;
  if (!s.ok) errors.seed = s.message;
  if (!n.ok || !p.ok || !h.ok || !s.ok) return { ok: false, errors };
  return {
    ok: true,
    value: {
      count: n.value,
      periodMs: p.value * 1000,
      holdMs: h.value * 1000,
      seed: s.value,
      ...(d.client ? { client: d.client } : {}),
      ...(d.longLived ? { longLivedClient: d.longLived } : {}),
    },
  };
}

/**
 * Many connections: send N (1 … 100,000) over a period with a seed and a client, through the
 * model; the result per node (where the balancer delivered) and per Pod (where kube-proxy
 * DNATed) as a d3-scaled bar chart with the expected share marked, and as a table — count,
 * share, expected share, signed difference in percentage points, cross-node hops, SNATed —
 * which is the accessible version. A chosen client's long-lived connection is followed
 * across the changes.
 */
export function ConnectionsPanel({ clients }: { clients: readonly string[] }) {
  const store = useAppStoreApi();
  const timeline = useTimeline();
  const workload = useAppStore(selectWorkload);
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => ({
    count: String(workload.count),
    periodS: String(workload.periodMs / 1000),
    holdS: String(workload.holdMs / 1000),
    seed: String(workload.seed),
    client: workload.client ?? '',
    longLived: workload.longLivedClient ?? '',
  }));
  const [errors, setErrors] = useState<DraftErrors>({});
  // The run is computed off this thread; a newer Send supersedes one still computing.
  const { pending, busy } = useTimeStatus();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkDraft(draft);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    store.getState().setWorkload(checked.value);
  };
  const field = (key: keyof Draft, label: string, extra: string) => (
    <div className={`field${errors[key] ? ' invalid' : ''}`}>
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <input
        id={`${id}-${key}`}
        type="text"
        inputMode="numeric"
        size={7}
        value={draft[key]}
        onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
        aria-invalid={errors[key] ? true : undefined}
        aria-describedby={`${id}-${key}-hint ${id}-${key}-error`}
        data-field={key}
      />
      <span className="hint" id={`${id}-${key}-hint`}>
        {extra}
      </span>
      <span className="error" id={`${id}-${key}-error`} aria-live="polite">
        {errors[key] ?? ''}
      </span>
    </div>
  );
  const stats = timeline.stats;
  const w = timeline.settings.workload;
  const longLived = timeline.connections.filter((c) => c.longLived);
  return (
    <div className="many" data-testid="many-connections">
      <form className="many-form" onSubmit={submit} aria-label="Send connections" noValidate>
        {field(
          'count',
          'Connections',
          `${count(VIEW_WORKLOAD_RANGES.count.min)} to ${count(VIEW_WORKLOAD_RANGES.count.max)}`,
        )}
        {field('periodS', 'Over (seconds)', 'opened at a fixed rate')}
        {field('holdS', 'Each held open (s)', '0: one request')}
        {field('seed', 'Seed', 'same seed, same result')}
        <div className="field">
          <label htmlFor={`${id}-client`}>Client</label>
          <select
            id={`${id}-client`}
            value={draft.client}
            onChange={(e) => setDraft({ ...draft, client: e.target.value })}
          >
            <option value="">the scenario’s Internet client</option>
            {clients.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-long`}>Follow a long-lived connection of</label>
          <select
            id={`${id}-long`}
            value={draft.longLived}
            onChange={(e) => setDraft({ ...draft, longLived: e.target.value })}
          >
            <option value="">no client</option>
            {clients.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" data-testid="send-connections">
          Send
        </button>
      </form>
      <p className="caption" aria-live="polite" data-testid="many-busy">
        {busy ? `Simulating ${plural(workload.count, 'connection')}…` : ''}
      </p>
      <p
        className="caption"
        data-testid="many-summary"
        data-total={stats.total}
        aria-busy={pending}
      >
        {plural(stats.total, 'connection')} from {w.client ?? 'the Internet client'} between t ={' '}
        {seconds(w.startMs)} and t = {seconds(w.startMs + w.periodMs)} (seed{' '}
        {timeline.settings.seed}): {count(stats.delivered)} delivered, {count(stats.failed)} not;{' '}
        {count(stats.crossNode)} crossed to another node, {count(stats.snat)} SNATed.
      </p>
      <ShareChart stats={stats} />
      <div className="share-tables">
        <ShareTable
          title="Per node (where the balancer delivered)"
          rows={stats.perNode}
          kind="node"
          total={stats.total}
        />
        <ShareTable
          title="Per Pod (where kube-proxy sent them)"
          rows={stats.perPod}
          kind="pod"
          total={stats.total}
        />
      </div>
      {longLived.length > 0 && (
        <div className="long-lived" data-testid="long-lived">
          <h3>Long-lived connections</h3>
          <ul>
            {longLived.map((c) => (
              <li key={c.id} data-connection={c.id} data-pod={c.pod ?? ''} data-fate={c.fate}>
                <strong className="mono">{c.id}</strong> from {c.client}, opened at t ={' '}
                {seconds(c.openedAt)}:{' '}
                {c.pod ? (
                  <>
                    kept on Pod <code>{c.pod}</code> via {c.lbTarget} by conntrack
                  </>
                ) : (
                  'not delivered'
                )}{' '}
                — {c.fate}
                {c.endedAt !== null ? ` at t = ${seconds(c.endedAt)}` : ''}: {c.fateReason}
              </li>
            ))}
          </ul>
          <p className="note">
            A connection keeps the path its first packet took: conntrack maps every later packet to
            the same Pod, whatever the EndpointSlice says since. Only new connections are spread
            anew.
          </p>
        </div>
      )}
    </div>
  );
}

const CW = 1000;
const CL = 250;
const ROW = 26;

/** Bars of the observed share per node and per Pod, with a tick at the expected share. */
// Memoised: at 1,000 Pods the chart and the tables are most of the panel's render, and their
// inputs change only with the timeline (not with typing in the form, nor "Computing…").
const ShareChart = memo(function ShareChart({ stats }: { stats: ConnectionStats }) {
  const rows = useMemo(
    () => [
      ...stats.perNode.map((r) => ({ key: `node:${r.id}`, label: r.id, row: r })),
      ...stats.perPod.map((r) => ({
        key: `pod:${r.id}`,
        label: `Pod ${r.id.split('/')[1] ?? r.id}`,
        row: r,
      })),
    ],
    [stats],
  );
  const height = rows.length * ROW + 30;
  const y = useMemo(
    () =>
      scaleBand<string>()
        .domain(rows.map((r) => r.key))
        .range([24, height - 6])
        .paddingInner(0.25),
    [rows, height],
  );
  const max = Math.max(0.01, ...rows.flatMap((r) => [r.row.share, r.row.expectedShare]));
  const x = useMemo(() => linearScale(nice(0, max, 5), [CL, CW - 270]), [max]);
  return (
    <svg
      className="share-chart"
      viewBox={`0 0 ${CW} ${height}`}
      role="img"
      aria-label="Bar chart of the share of connections per node and per Pod against the expected share; the tables below give the same numbers."
      data-testid="share-chart"
    >
      {x.ticks(5).map((t) => (
        <g key={t} className="axis">
          <line x1={x(t)} x2={x(t)} y1={18} y2={height - 4} />
          <text x={x(t)} y={13} textAnchor="middle">
            {percent(t).replace('.0 %', ' %')}
          </text>
        </g>
      ))}
      {rows.map(({ key, label, row }) => {
        const top = y(key) ?? 0;
        const h = y.bandwidth();
        return (
          <g key={key} className={`share-row ${key.startsWith('node') ? 'node' : 'pod'}`}>
            <text x={CL - 8} y={top + h / 2 + 4} textAnchor="end">
              {label}
            </text>
            <rect
              x={CL}
              y={top}
              width={Math.max(0, x(row.share) - CL)}
              height={h}
              className="bar"
            />
            <line
              className="expected"
              x1={x(row.expectedShare)}
              x2={x(row.expectedShare)}
              y1={top - 3}
              y2={top + h + 3}
            />
            <text
              x={Math.max(x(row.share), x(row.expectedShare)) + 6}
              y={top + h / 2 + 4}
              className="value"
            >
              {`${percent(row.share)} (exp. ${percent(row.expectedShare)}, ${pointsDiff(row.share, row.expectedShare)})`}
            </text>
          </g>
        );
      })}
    </svg>
  );
});

interface TableProps {
  title: string;
  rows: readonly ShareRow[];
  kind: 'node' | 'pod';
  total: number;
}

/**
 * The numbers behind the chart. Connections that reached no node (or no Pod) get a row of their
 * own, so the counts always sum to the total sent.
 */
const ShareTable = memo(function ShareTable({ title, rows, kind, total }: TableProps) {
  const counted = rows.reduce((a, r) => a + r.count, 0);
  const rest = total - counted;
  const sum = counted + rest;
  return (
    <table className="share-table" data-testid={`share-table-${kind}`} data-sum={sum}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">{kind === 'node' ? 'Node' : 'Pod'}</th>
          <th scope="col">Count</th>
          <th scope="col">Share</th>
          <th scope="col">Expected share</th>
          <th scope="col">Difference</th>
          <th scope="col">Cross-node hops</th>
          <th scope="col">SNATed</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.id}
            data-row={r.id}
            data-count={r.count}
            data-share={r.share}
            data-expected={r.expectedShare}
          >
            <th scope="row" className="mono">
              {r.id}
            </th>
            <td>{count(r.count)}</td>
            <td>{percent(r.share)}</td>
            <td>{percent(r.expectedShare)}</td>
            <td>{pointsDiff(r.share, r.expectedShare)}</td>
            <td>{count(r.crossNode)}</td>
            <td>{count(r.snat)}</td>
          </tr>
        ))}
        {rest > 0 && (
          <tr data-row="none" data-count={rest}>
            <th scope="row">{kind === 'node' ? 'no node' : 'no Pod'}</th>
            <td>{count(rest)}</td>
            <td>{percent(total ? rest / total : 0)}</td>
            <td colSpan={4}>
              {kind === 'node'
                ? 'never sent (no address yet) or no target in rotation'
                : 'not delivered: timed out, refused or no address yet'}
            </td>
          </tr>
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <td data-testid={`share-total-${kind}`}>{count(sum)}</td>
          <td colSpan={5} />
        </tr>
      </tfoot>
    </table>
  );
});
