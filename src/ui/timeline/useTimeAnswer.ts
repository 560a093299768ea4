/**
 * The time view's model answer, computed off the main thread in the browser (the time view's
 * own Web Worker, `src/worker/timelineClient.ts`) and in this thread where there is no
 * `Worker` (Node, vitest: {@link timeAnswer} at once, as before).
 */
import { startTransition, useEffect, useMemo, useState } from 'react';
import type { ScenarioObject } from '../../model/k8s/objects';
import type { SceneOptions } from '../../model/scenario/scene';
import { BUSY_AFTER_MS } from '../../store/hooks';
import { timeAnswer } from '../../store/timeAnswer';
import type { TimeAnswer, TimeInputs } from '../../store/timeAnswer';
import { timelineWorkerClient } from '../../worker/timelineClient';

/** What the view shows, and whether it is for the inputs on screen. */
export interface TimeAnswerState {
  /** The latest answer that landed (null before the first): kept while a newer one computes. */
  answer: TimeAnswer | null;
  /** The answer on screen is not for the current inputs (a newer one is being computed). */
  pending: boolean;
  /** Pending for over {@link BUSY_AFTER_MS}: when to say "Computing…". */
  busy: boolean;
}

/**
 * The answer for `objects`, `scene` and the time inputs (each compared by reference). With the
 * worker each change sends one request; a newer one supersedes the older (whose answer never
 * lands), and the last answer stays on screen meanwhile.
 */
export function useTimeAnswer(
  objects: ScenarioObject[],
  scene: SceneOptions,
  time: TimeInputs,
): TimeAnswerState {
  const { controller, healthCheck, events, workload } = time;
  const [channel] = useState(() => timelineWorkerClient()?.channel());
  const sync = useMemo(
    () =>
      channel ? null : timeAnswer(objects, scene, { controller, healthCheck, events, workload }),
    [channel, objects, scene, controller, healthCheck, events, workload],
  );
  const [landed, setLanded] = useState<{ key: readonly unknown[]; answer: TimeAnswer } | null>(
    null,
  );
  useEffect(() => {
    if (!channel) return;
    const key = [objects, scene, controller, healthCheck, events, workload];
    // Landed as a transition: React renders the new timeline's panels (at 1,000 Pods a table
    // and a chart of 1,000 rows each) in slices, yielding to input between them, where one
    // render blocked the page for 0.2-0.6 s.
    channel.request(objects, scene, { controller, healthCheck, events, workload }, (answer) =>
      startTransition(() => setLanded({ key, answer })),
    );
  }, [channel, objects, scene, controller, healthCheck, events, workload]);
  useEffect(() => () => channel?.close(), [channel]);
  const key = [objects, scene, controller, healthCheck, events, workload];
  const pending = !sync && !(landed && landed.key.every((k, i) => k === key[i]));
  const late = useLate(pending);
  return { answer: sync ?? landed?.answer ?? null, pending, busy: pending && late };
}

/** True once `on` has stayed true for {@link BUSY_AFTER_MS}; false again as soon as it is not. */
function useLate(on: boolean): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!on) return;
    const t = setTimeout(() => setLate(true), BUSY_AFTER_MS);
    return () => {
      clearTimeout(t);
      setLate(false);
    };
  }, [on]);
  return on && late;
}
