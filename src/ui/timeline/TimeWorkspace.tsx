/**
 * The "Time & failures" workspace (lazy chunk): the topology as of the simulated time with the
 * control plane above it and the virtual clock under it, `kubectl get svc` and the controller
 * choice beside it, then the health lanes, the scheduled changes, what happens, and many
 * connections. The timeline is derived from the store (scenario + time inputs) by the model,
 * in the time view's Web Worker (`useTimeAnswer`): the last timeline stays on screen while a
 * newer one is computed, and the stage says "Computing…" when that takes over 300 ms.
 */
import { memo, useMemo } from 'react';
import type { ReactNode } from 'react';
import { benchmarkSampling, benchmarkSimulate } from '../../model/time';
import type { ControllerKind, HealthCheckSettings } from '../../model/time/types';
import { useAppStore, useAppStoreApi } from '../../store';
import type { Store } from '../../store';
import type { TimeAnswer } from '../../store/timeAnswer';
import { formatTimeEvents } from '../../tutorial/timeLink';
import { Panel } from '../Panel';
import { ErrorBoundary } from '../ErrorBoundary';
import { RadioGroup } from '../controls/RadioGroup';
import { ConnectionsPanel } from './ConnectionsPanel';
import { ControlPlaneStrip } from './ControlPlaneStrip';
import {
  TimelineContext,
  TimeStatusContext,
  useDerived,
  useSimMs,
  useTimeline,
  useTimeStatus,
} from './context';
import { entryTimes, epochAt } from '../../store/timelineDerive';
import { EventLog } from './EventLog';
import { HealthLanes } from './HealthLanes';
import { HealthSettings } from './HealthSettings';
import { KubectlBox } from './KubectlBox';
import { timeScenario } from './openAsTrace';
import { provisioningStages, stageAt } from './provisioning';
import { ScheduleForm } from './ScheduleForm';
import { TimeControls } from './TimeControls';
import { TimeTopology } from './TimeTopology';
import { useTimeAnswer } from './useTimeAnswer';
import { useTimeClock } from './useTimeClock';
import { useTimeKeys } from './useTimeKeys';
import './timeline.css';

const selectTime = (s: Store) => s.time;
const selectObjects = (s: Store) => timeScenario(s).objects;
const selectScene = (s: Store) => timeScenario(s).scene;
const selectController = (s: Store) => s.time.controller;
const selectSimMsRounded = (s: Store) => Math.round(s.time.simMs);

declare global {
  interface Window {
    /** Installed by the time view's chunk only: the model's benchmark, for scripts/bench-browser.mjs. */
    __lbTimeBench?: (count: number, seed?: number) => ReturnType<typeof benchmarkSampling>;
    /** The same for a whole run (`simulate`), paths traced and every connection settled. */
    __lbTimeBenchSimulate?: (count: number, seed?: number) => ReturnType<typeof benchmarkSimulate>;
  }
}
if (typeof window !== 'undefined') {
  window.__lbTimeBench = (count, seed) => benchmarkSampling(count, () => performance.now(), seed);
  window.__lbTimeBenchSimulate = (count, seed) =>
    benchmarkSimulate(count, () => performance.now(), seed);
}

const CONTROLLERS: { value: ControllerKind; label: string }[] = [
  { value: 'cloud', label: 'cloud (cloud-controller-manager)' },
  { value: 'none', label: 'none (bare metal)' },
  { value: 'metallb-l2', label: 'MetalLB layer 2' },
];

/**
 * The workspace: asks the model for the timeline of the inputs on screen (`useTimeAnswer`) and
 * shows the last one that landed; before the first, a "Computing the timeline…" status
 * (`data-state="computing"`).
 */
export default function TimeWorkspace() {
  const objects = useAppStore(selectObjects);
  const scene = useAppStore(selectScene);
  const time = useAppStore(selectTime);
  const { controller, healthCheck, events, workload } = time;
  const { answer, pending, busy } = useTimeAnswer(objects, scene, {
    controller,
    healthCheck,
    events,
    workload,
  });
  if (!answer)
    return (
      <main
        className="layout time-layout"
        data-testid="time-view"
        data-state="computing"
        data-timeline-pending="true"
        aria-busy="true"
        aria-label="Time and failures"
      >
        <p className="time-loading" role="status">
          Computing the timeline…
        </p>
      </main>
    );
  return <Loaded answer={answer} pending={pending} busy={busy} />;
}

/**
 * The time view with an answer on screen: runs the virtual clock and the time view's keys
 * while mounted, and exposes for tests `data-sim-time` / `data-horizon` / `data-state`
 * (`ready` or `error` for the inputs on screen, `computing` while a newer answer is computed:
 * the last one stays on screen), `data-timeline-pending`, and the inputs: `data-controller`,
 * `data-policy`, `data-nodes`, `data-events` (the compact events form), `data-connections`,
 * `data-revision` and, once simulated, the health-check settings in effect
 * (`data-hc-interval`, `data-hc-timeout`, `data-hc-healthy`, `data-hc-unhealthy`).
 * The panels start again from the store when `revision` changes (a tutorial time link).
 */
function Loaded({
  answer,
  pending,
  busy,
}: {
  answer: TimeAnswer;
  pending: boolean;
  busy: boolean;
}) {
  const store = useAppStoreApi();
  const objects = useAppStore(selectObjects);
  const scene = useAppStore(selectScene);
  const time = useAppStore(selectTime);
  const { controller, events, workload, revision } = time;
  const { derived, defaults, clients } = answer;
  const status = useMemo(() => ({ pending, busy }), [pending, busy]);
  const horizon = derived.ok ? derived.timeline.settings.horizonMs : 0;
  const times = useMemo(() => (derived.ok ? entryTimes(derived.timeline) : []), [derived]);
  useTimeClock(store, horizon);
  useTimeKeys(store, times, horizon);
  const simMs = useAppStore(selectSimMsRounded);
  const hc = derived.ok ? derived.timeline.settings.healthCheck : undefined;
  const nodes = useMemo(
    () =>
      objects
        .filter((o) => o.kind === 'Node')
        .map((o) => o.metadata?.name ?? '')
        .join(','),
    [objects],
  );

  return (
    <TimelineContext.Provider value={derived}>
      <TimeStatusContext.Provider value={status}>
        <main
          className="layout time-layout"
          data-testid="time-view"
          data-sim-time={simMs}
          data-horizon={horizon}
          data-state={pending ? 'computing' : derived.ok ? 'ready' : 'error'}
          data-timeline-pending={pending}
          data-controller={controller}
          data-policy={scene.externalTrafficPolicy}
          data-nodes={nodes}
          data-events={formatTimeEvents(events)}
          data-connections={workload.count}
          data-revision={revision}
          {...(hc
            ? {
                'data-hc-interval': hc.intervalSeconds,
                'data-hc-timeout': hc.timeoutSeconds,
                'data-hc-healthy': hc.healthyThreshold,
                'data-hc-unhealthy': hc.unhealthyThreshold,
              }
            : {})}
          aria-label="Time and failures"
        >
          {derived.ok ? (
            <Workspace key={revision} times={times} defaults={defaults} clients={clients} />
          ) : (
            <ErrorWorkspace key={revision} error={derived.error} defaults={defaults} />
          )}
        </main>
      </TimeStatusContext.Provider>
    </TimelineContext.Provider>
  );
}

/**
 * "Computing…" over the stage while a newer timeline is computed for over 300 ms (the last one
 * stays under it). Always in the DOM: a live region must exist before it speaks.
 */
function TimeBusy() {
  const { busy } = useTimeStatus();
  return (
    <p className="stage-busy" role="status" data-testid="time-busy" data-busy={busy}>
      {busy ? 'Computing…' : ''}
    </p>
  );
}

/**
 * The stage, `aria-busy` while "Computing…" shows, with {@link TimeBusy} first. Its own
 * component, so only it re-renders when that changes (the drawing under it does not).
 */
function TimeStage({ className, children }: { className: string; children: ReactNode }) {
  const { busy } = useTimeStatus();
  return (
    <section className={className} aria-label="Topology over time" aria-busy={busy}>
      <TimeBusy />
      {children}
    </section>
  );
}

/** Inputs of the time view that do not apply to this scenario, and what the run does instead. */
function Notices() {
  const { notices } = useDerived();
  if (notices.length === 0) return null;
  return (
    <div className="time-notices" role="status" data-testid="time-notices">
      {notices.map((n) => (
        <p key={n}>{n}</p>
      ))}
    </div>
  );
}

/**
 * What stays when the model cannot simulate: the message, and the inputs that may have caused
 * it — the controller, the scheduled changes (each removable) and the health-check settings —
 * so the view is never a dead end.
 */
const ErrorWorkspace = memo(function ErrorWorkspace({
  error,
  defaults,
}: {
  error: string;
  defaults: HealthCheckSettings | null;
}) {
  const store = useAppStoreApi();
  const controller = useAppStore(selectController);
  return (
    <>
      <TimeStage className="stage area-stage time-error">
        <p className="model-error" role="alert" data-testid="time-error">
          The model could not simulate this scenario over time: {error}. Change the inputs beside
          and below (remove an event, mend a setting) or pick another controller.
        </p>
      </TimeStage>
      <div className="time-side time-area-side">
        <Notices />
        <Panel title="Cloud controller" testId="time-status">
          <RadioGroup
            legend="Who implements type: LoadBalancer"
            name="controller"
            value={controller}
            options={CONTROLLERS}
            onChange={(c) => store.getState().setController(c)}
            note="Changing it starts the run again from t = 0."
          />
        </Panel>
        <Panel title="Failures and changes" testId="time-schedule">
          <ScheduleForm />
        </Panel>
      </div>
      {defaults && (
        <Panel title="Health checks" testId="time-health" className="time-area-lanes">
          <details className="hc-details" open>
            <summary>Health-check settings</summary>
            <HealthSettings defaults={defaults} />
          </details>
        </Panel>
      )}
    </>
  );
});

/**
 * The panels over a timeline. Memoised: the clock's ticks and "Computing…" re-render the
 * workspace's parent, not these (each panel that follows the clock subscribes to it).
 */
const Workspace = memo(function Workspace({
  times,
  defaults,
  clients,
}: {
  times: readonly number[];
  defaults: HealthCheckSettings | null;
  clients: readonly string[];
}) {
  const store = useAppStoreApi();
  const timeline = useTimeline();
  const controller = useAppStore(selectController);
  const horizon = timeline.settings.horizonMs;
  const stages = useMemo(() => provisioningStages(timeline), [timeline]);
  return (
    <>
      <TimeStage className="stage area-stage">
        <div className="stage-controls">
          <ErrorBoundary name="the clock">
            <TimeControls horizonMs={horizon} times={times} />
          </ErrorBoundary>
        </div>
        <div className="stage-drawing">
          <ErrorBoundary name="the topology over time">
            <StageDrawing stages={stages} controller={controller} />
          </ErrorBoundary>
        </div>
      </TimeStage>
      <div className="time-side time-area-side">
        <Notices />
        <Panel title="Cloud controller" testId="time-status">
          <RadioGroup
            legend="Who implements type: LoadBalancer"
            name="controller"
            value={controller}
            options={CONTROLLERS}
            onChange={(c) => store.getState().setController(c)}
            note="Changing it starts the run again from t = 0."
          />
        </Panel>
        <Panel title="Failures and changes" testId="time-schedule">
          <ScheduleForm />
        </Panel>
      </div>
      <Panel title="Health checks" testId="time-health" className="time-area-lanes">
        <HealthLanes />
        {defaults && (
          <details className="hc-details">
            <summary>Health-check settings</summary>
            <HealthSettings defaults={defaults} />
          </details>
        )}
      </Panel>
      <Panel title="What happens" testId="time-log" className="time-area-log">
        <EventLog />
      </Panel>
      <Panel title="Many connections" testId="time-many" className="time-area-many">
        <ConnectionsPanel clients={clients} />
      </Panel>
    </>
  );
});

function StageDrawing({
  stages,
  controller,
}: {
  stages: ReturnType<typeof provisioningStages>;
  controller: ControllerKind;
}) {
  const timeline = useTimeline();
  const simMs = useSimMs();
  const current = stageAt(stages, simMs);
  const announcing = epochAt(timeline, simMs)?.state.announcingNode ?? null;
  return (
    <>
      <ControlPlaneStrip
        controller={controller}
        stages={stages}
        current={current}
        announcingNode={announcing}
        simMs={simMs}
      />
      <KubectlBox />
      <TimeTopology stage={current} />
    </>
  );
}
