import { useEffect, useId, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import {
  StoreProvider,
  selectPlayback,
  selectStep,
  selectStepCount,
  selectTrace,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { first, last, next, playPause, prev, run } from '../../store/commands';
import type { Command } from '../../store/commands';
import { openView, snapshot, storeForView } from '../../store/share';
import type { SharedState } from '../../store/share';
import { Topology } from '../topology/Topology';
import { usePlaybackClock } from '../usePlaybackClock';
import { readSceneBlock } from './blockYaml';
import { DISPLACED_NOTE, useReader } from './context';
import { revealStage } from './layout';
import { useScene } from './useScene';

/** The live scene's keys, handled inside it only (the page's global keys stay the player's). */
const KEYS: Record<string, Command> = {
  ArrowLeft: prev,
  ArrowRight: next,
  Home: first,
  End: last,
  ' ': playPause,
};

function EmbedButton({ command, children }: { command: Command; children: string }) {
  const store = useAppStoreApi();
  const label = useAppStore(command.label);
  const enabled = useAppStore(() => command.enabled(store));
  return (
    <button
      type="button"
      aria-label={label}
      aria-disabled={enabled ? undefined : true}
      data-embed-command={command.id}
      onClick={() => enabled && run(store, command)}
    >
      {children}
    </button>
  );
}

/** The current step's narration, announced politely. */
function EmbedNarration() {
  const step = useAppStore(selectStep);
  const { stepIndex } = useAppStore(selectPlayback);
  const count = useAppStore(selectStepCount);
  const trace = useAppStore(selectTrace);
  const atEnd = count > 0 && stepIndex === count - 1;
  return (
    <div className="embed-narration" aria-live="polite" aria-atomic="true">
      <p className="embed-count">
        {step ? `Step ${stepIndex + 1} of ${count}` : `Before the first step · ${count} steps`}
      </p>
      {step ? (
        <>
          <p className="embed-title">{step.narration.title}</p>
          <p className="embed-body">{step.narration.body}</p>
        </>
      ) : count === 0 ? (
        // Nothing to play: the model says why (e.g. no address to dial while EXTERNAL-IP is
        // <pending>), as the main narration does.
        <p className="embed-body" data-testid="embed-empty">
          <strong>Nothing to send:</strong> {trace.outcome.summary}
          {'reason' in trace.outcome ? ` ${trace.outcome.reason}` : ''}
        </p>
      ) : (
        <p className="embed-body">Press Play or Next to follow the first packet.</p>
      )}
      {atEnd && (
        <p className="embed-outcome">
          <strong>Outcome:</strong> {trace.outcome.summary}
        </p>
      )}
    </div>
  );
}

/**
 * Whether the live scene no longer shows its block's scene: its drawing lets a node be failed or
 * restored with a click, which the caption does not describe.
 */
function useChanged(): boolean {
  const objects = useAppStore((s) => s.objects);
  const scene = useAppStore((s) => s.scene);
  const [initial] = useState(() => ({ objects, scene, sceneJson: JSON.stringify(scene) }));
  return (
    (initial.scene !== scene && JSON.stringify(scene) !== initial.sceneJson) ||
    (initial.objects !== objects && JSON.stringify(objects) !== JSON.stringify(initial.objects))
  );
}

function EmbedPlayer({ view, onOpen }: { view: SharedState; onOpen: (e: HTMLElement) => void }) {
  const store = useAppStoreApi();
  const { playing, stepIndex } = useAppStore(selectPlayback);
  const changed = useChanged();
  usePlaybackClock(store);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const command = KEYS[e.key];
    if (!command) return;
    // Space presses a focused button; it is "play" only on the drawing itself.
    if (e.key === ' ' && (e.target as Element).closest('button')) return;
    e.preventDefault();
    run(store, command);
  };
  return (
    <div
      className="embed-player"
      onKeyDown={onKeyDown}
      data-own-keys=""
      data-step-index={stepIndex}
    >
      <div
        className="embed-drawing"
        tabIndex={0}
        role="group"
        aria-label="Live scene. Keys: Space play or pause, left and right arrows step, Home and End first and last step."
      >
        <Topology />
      </div>
      <EmbedNarration />
      <div className="embed-controls" role="group" aria-label="Live scene playback">
        <EmbedButton command={prev}>◀ Prev</EmbedButton>
        <EmbedButton command={playPause}>{playing ? '❚❚ Pause' : '▶ Play'}</EmbedButton>
        <EmbedButton command={next}>Next ▶</EmbedButton>
        {changed && (
          <button
            type="button"
            onClick={() => openView(store, view)}
            data-embed-command="reset"
            title="Back to the scene this text describes"
          >
            ↺ Reset
          </button>
        )}
        <button
          type="button"
          className="embed-open"
          onClick={(e) => onOpen(e.currentTarget)}
          data-embed-command="open"
        >
          Open in the visualiser
        </button>
      </div>
      {changed && (
        <p className="embed-changed" role="note" data-testid="embed-changed">
          You changed this live scene, so the caption may no longer match it; Reset brings back the
          scene it describes.
        </p>
      )}
    </div>
  );
}

/**
 * A live scene inline (a fenced `scene` block): a small visualiser with its own store, opened on
 * the block's scene, with the step's narration, Prev / Play / Next and the caption. "Open in the
 * visualiser" copies its view (scene and step) to the app's visualiser.
 *
 * For tests: `data-testid="scene-embed"`, `data-scene-query`, `data-scene-state`.
 */
export function SceneEmbed({ raw }: { raw: string }) {
  const { openInVisualiser, announce } = useReader();
  const block = readSceneBlock(raw);
  const query = block.ok ? block.scene : undefined;
  const state = useScene(query);
  const captionId = useId();
  const view = state.status === 'ok' ? state.scene.state : null;
  // The live scene's own store, on the block's view (storeForView: a new store, opened on it).
  const store = useMemo(() => (view ? storeForView(view) : null), [view]);
  useEffect(() => () => store?.getState().setPlaying(false), [store]);
  const problem = block.ok ? (state.status === 'error' ? state.message : null) : block.message;
  return (
    <figure
      className="scene-embed"
      data-testid="scene-embed"
      data-scene-query={query ?? ''}
      data-scene-state={problem ? 'error' : store ? 'ok' : 'pending'}
      aria-labelledby={block.ok && block.caption ? captionId : undefined}
    >
      {problem ? (
        <p className="embed-broken" role="note">
          This live scene could not be shown: {problem}
        </p>
      ) : store && view ? (
        <StoreProvider store={store}>
          <EmbedPlayer
            view={view}
            onOpen={(origin) => {
              const displaced = openInVisualiser(snapshot(store.getState()));
              announce(
                `The live scene is now open in the visualiser.${displaced ? DISPLACED_NOTE : ''}`,
              );
              revealStage(origin);
            }}
          />
        </StoreProvider>
      ) : (
        <p className="embed-loading">Loading the live scene…</p>
      )}
      {block.ok && block.caption && <figcaption id={captionId}>{block.caption}</figcaption>}
    </figure>
  );
}
