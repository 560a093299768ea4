/**
 * Putting a talk's beat on screen: its link resolved exactly as the tutorial resolves a scene
 * or time link (src/ui/tutorial/scenes.ts, times.ts; imported on first use, so the tutorial's
 * parser stays out of the initial bundle), then opened on the store with `openView`, paused.
 *
 * Unlike a link in the tutorial reader, this does not keep the learner's cluster for "Restore",
 * mark the view as the tutorial's, move the reader or touch the address: a presenter's beat is
 * the whole screen.
 */
import type { AppStore } from '../../store';
import { openView } from '../../store/share';
import type { SharedState } from '../../store/share';
import type { TimeOpen } from '../../tutorial/timeResolve';
import type { TalkBeat } from '../../tutorial/talks';

/** The outcome of {@link applyBeat}. */
export type ApplyBeatResult = { ok: true } | { ok: false; message: string };

/**
 * A resolved time link as one view for `openView`: its scenario and scene, then the Time &
 * failures view with its inputs and the clock at `simMs`, paused (openView calls `openTime`).
 */
export function timeLinkView(open: TimeOpen): SharedState {
  return { ...open.view, time: { view: 'time', ...open.time, simMs: open.simMs } };
}

/** The latest call per store: an older call still resolving must not overwrite a newer beat. */
const latest = new WeakMap<AppStore, number>();
let calls = 0;

/**
 * The scene or time query `beat` shows; for a `steps:` beat not yet expanded, trace step
 * `from + stepWithin` (`stepWithin` 0-based). An expanded beat (or any other) ignores
 * `stepWithin`.
 */
async function queryOf(beat: TalkBeat, stepWithin: number | undefined): Promise<string> {
  if (!beat.steps || stepWithin === undefined) return beat.show.query;
  const { stepQuery } = await import('../../tutorial/talks');
  return stepQuery(beat.show.query, beat.steps.from + stepWithin);
}

/**
 * Shows `beat` on `store`: a scene beat opens the trace view on its scene and step (leaving the
 * Time & failures view if it is on); a time beat opens the Time & failures view with its inputs,
 * the clock stopped at `at`. Both are paused. `stepWithin` (0-based) picks one trace step of a
 * `steps:` beat that was not expanded (loadTalk's beats are; they need none). The last call per
 * store wins: an earlier one still resolving then changes nothing and resolves `ok: false`
 * ("superseded"). Never rejects: a link that does not resolve (a bad key, an example that
 * cannot be fetched, a step past the trace, `stepWithin` past `steps.to`) is `ok: false` with
 * the resolver's message, and the store is left as it was.
 */
export async function applyBeat(
  store: AppStore,
  beat: TalkBeat,
  stepWithin?: number,
): Promise<ApplyBeatResult> {
  const call = ++calls;
  latest.set(store, call);
  const superseded: ApplyBeatResult = { ok: false, message: 'superseded by a later beat' };
  if (stepWithin !== undefined && beat.steps) {
    const { to } = beat.steps;
    if (
      !Number.isInteger(stepWithin) ||
      stepWithin < 0 ||
      (to !== 'last' && beat.steps.from + stepWithin > to)
    )
      return {
        ok: false,
        message: `step ${stepWithin} is not within steps ${beat.steps.from}-${to}`,
      };
  }
  const query = await queryOf(beat, stepWithin);
  let view: SharedState;
  if (beat.show.kind === 'scene') {
    const { resolveScene, resolveErrors } = await import('../tutorial/scenes');
    const r = await resolveScene(query);
    if (!r.ok) return { ok: false, message: resolveErrors(r) };
    view = r.scene.state;
  } else {
    const { resolveTime, timeErrors } = await import('../tutorial/times');
    const r = await resolveTime(query);
    if (!r.ok) return { ok: false, message: timeErrors(r) };
    view = timeLinkView(r.time.open);
  }
  if (latest.get(store) !== call) return superseded;
  openView(store, view);
  return { ok: true };
}
