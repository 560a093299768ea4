/**
 * The embed's postMessage API (documented in README, "Embed it in your docs"). Every message is
 * a plain object whose `type` starts with `lb-datapath:`.
 *
 * To the host (posted to `window.parent`):
 * - `{ type: 'lb-datapath:ready', step, steps }` once, when the scene is drawn and answers input;
 * - `{ type: 'lb-datapath:step', step, steps, playing }` whenever the step or play state changes;
 * - `{ type: 'lb-datapath:resize', height }` the embed's content height in CSS px (whole px),
 *   whenever it changes: size the iframe to it;
 * - `{ type: 'lb-datapath:key', key, code, shiftKey, altKey, ctrlKey, metaKey }` a key pressed
 *   in the embed that it does not use (PageDown, N, F, …), so a slide deck keeps its keys;
 * - `{ type: 'lb-datapath:error', message }` a command that could not be carried out.
 *
 * From the host:
 * - `{ type: 'lb-datapath:goTo', step }` step 0 = before the first step … `steps` = the last;
 * - `{ type: 'lb-datapath:play' }`, `{ type: 'lb-datapath:pause' }`;
 * - `{ type: 'lb-datapath:set', toggle, value }` with `toggle` one of
 *   `externalTrafficPolicy` (`Cluster` | `Local`), `ipMode` (`VIP` | `Proxy`), `proxyMode`
 *   (`iptables` | `nftables` | `ipvs`), `published` (boolean), or `nodeFailed` with `node`
 *   (a node's name) and `value` (boolean).
 *
 * `step` numbers steps as the player's step buttons do: 0 is "before the first step", 1 the
 * first step, … `steps` the last.
 */
import {
  nodeIsDown,
  run,
  setIpMode,
  setPolicy,
  setProxyMode,
  setPublished,
  toggleNodeFailure,
} from '../store/commands';
import { whenModel } from '../store/modelSync';
import { selectCluster, selectStepCount } from '../store/selectors';
import type { AppStore } from '../store/types';

/** The prefix of every message type. */
export const MESSAGE_PREFIX = 'lb-datapath:';

export type ToHost =
  | { type: 'lb-datapath:ready'; step: number; steps: number }
  | { type: 'lb-datapath:step'; step: number; steps: number; playing: boolean }
  | { type: 'lb-datapath:resize'; height: number }
  | {
      type: 'lb-datapath:key';
      key: string;
      code: string;
      shiftKey: boolean;
      altKey: boolean;
      ctrlKey: boolean;
      metaKey: boolean;
    }
  | { type: 'lb-datapath:error'; message: string };

/** The player's step number (0 = before the first step) for a store step index (-1 = before). */
export function stepNumber(stepIndex: number): number {
  return stepIndex + 1;
}

/** Where the player is, as the messages and events say it: `{ step, steps }` (see the module comment). */
export function whereNow(store: AppStore): { step: number; steps: number } {
  const s = store.getState();
  return { step: stepNumber(s.playback.stepIndex), steps: selectStepCount(s) };
}

/**
 * A step reporter for the iframe's `lb-datapath:step` messages and the element's events:
 * each call tells `emit` the step, the step count and whether it plays, when one of them
 * changed since the last call that did.
 */
export function stepReporter(
  store: AppStore,
  emit: (e: { step: number; steps: number; playing: boolean }) => void,
): () => void {
  let last = '';
  return () => {
    const { step, steps } = whereNow(store);
    const { playing } = store.getState().playback;
    const key = `${step}/${steps}/${playing}`;
    if (key === last) return;
    last = key;
    emit({ step, steps, playing });
  };
}

const TOGGLES = ['externalTrafficPolicy', 'ipMode', 'proxyMode', 'published', 'nodeFailed'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Goes to step `step` (0 … steps) once the answer on screen is current, paused. */
export function goToStep(store: AppStore, step: number): void {
  whenModel(store, () => {
    const s = store.getState();
    const count = selectStepCount(s);
    s.setPlaying(false);
    s.setStepIndex(Math.max(-1, Math.min(count - 1, step - 1)));
  });
}

/**
 * Carries out one message from the host on `store`.
 * @returns null when done (or when `data` is not an `lb-datapath:` command at all: other
 *   messages on the page are none of the embed's business), else the reason it was refused,
 *   naming the field: e.g. `lb-datapath:set: value must be Cluster or Local (got "Both")`.
 */
export function applyHostMessage(store: AppStore, data: unknown): string | null {
  if (!isRecord(data) || typeof data['type'] !== 'string') return null;
  const type = data['type'];
  if (!type.startsWith(MESSAGE_PREFIX)) return null;
  switch (type) {
    case 'lb-datapath:goTo': {
      const step = data['step'];
      if (typeof step !== 'number' || !Number.isInteger(step) || step < 0)
        return `${type}: step must be a whole number from 0 (got ${JSON.stringify(step)})`;
      goToStep(store, step);
      return null;
    }
    case 'lb-datapath:play': {
      const s = store.getState();
      if (selectStepCount(s) === 0) return `${type}: there is nothing to play yet`;
      if (s.playback.stepIndex >= selectStepCount(s) - 1) s.setStepIndex(-1);
      s.setPlaying(true);
      return null;
    }
    case 'lb-datapath:pause':
      store.getState().setPlaying(false);
      return null;
    case 'lb-datapath:set':
      return applySet(store, data);
    default:
      return `${type} is not a command (goTo, play, pause, set)`;
  }
}

function applySet(store: AppStore, data: Record<string, unknown>): string | null {
  const toggle = data['toggle'];
  const value = data['value'];
  const bad = (allowed: string) =>
    `lb-datapath:set: value for ${String(toggle)} must be ${allowed} (got ${JSON.stringify(value)})`;
  switch (toggle) {
    case 'externalTrafficPolicy':
      if (value !== 'Cluster' && value !== 'Local') return bad('Cluster or Local');
      run(store, setPolicy(value));
      return null;
    case 'ipMode':
      if (value !== 'VIP' && value !== 'Proxy') return bad('VIP or Proxy');
      run(store, setIpMode(value));
      return null;
    case 'proxyMode':
      if (value !== 'iptables' && value !== 'nftables' && value !== 'ipvs')
        return bad('iptables, nftables or ipvs');
      run(store, setProxyMode(value));
      return null;
    case 'published':
      if (typeof value !== 'boolean') return bad('true or false');
      run(store, setPublished(value));
      return null;
    case 'nodeFailed': {
      const node = data['node'];
      if (typeof value !== 'boolean') return bad('true or false');
      const nodes = selectCluster(store.getState())?.nodes.map((n) => n.name) ?? [];
      if (typeof node !== 'string' || !nodes.includes(node))
        return `lb-datapath:set: node must be one of the cluster's nodes (${nodes.join(', ')}; got ${JSON.stringify(node)})`;
      if (nodeIsDown(store.getState().scene, node) !== value) run(store, toggleNodeFailure(node));
      return null;
    }
    default:
      return `lb-datapath:set: toggle must be one of ${TOGGLES.join(', ')} (got ${JSON.stringify(toggle)})`;
  }
}
