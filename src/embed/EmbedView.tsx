/**
 * The embed's view: the stage, the player and the narration, nothing else — no header, no
 * scene toggles, no "Your cluster" panel — and a small "Open in the full app" link. Used by
 * the iframe page (`embed.html`, ./main.tsx) and the `<lb-datapath>` element (./element.tsx),
 * inside a `StoreProvider`. It writes nothing to storage and never touches history.
 */
import { useEffect, useId, useRef } from 'react';
import type { RefObject } from 'react';
import { selectShareHash } from '../store/share';
import { useAppStoreApi } from '../store';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { Topology } from '../ui/topology/Topology';
import { PlaybackControls } from '../ui/controls/PlaybackControls';
import { Narration } from '../ui/panels/Narration';
import { OutcomeBanner } from '../ui/panels/OutcomeBanner';
import { usePlaybackClock } from '../ui/usePlaybackClock';
import { handlePlayerKey } from '../ui/useGlobalKeys';
import { MinimalControls } from './MinimalControls';
import type { EmbedOptions } from './options';
import '../ui/theme/tokens.css';
import '../ui/styles.css';
import '../ui/layout.css';
import './embed.css';

export interface EmbedViewProps {
  options: EmbedOptions;
  /** Sentences about ignored options (./options.ts), shown above the stage. */
  problems: readonly string[];
  /** The full app's URL for a share hash (`#s=…`, or null when the view has no link). */
  fullAppHref: (hash: string | null) => string;
  /**
   * Where keys are heard: the whole window (an iframe: its window is the embed) or only this
   * view's element (the `<lb-datapath>` element shares its window with the host page).
   */
  keyScope: 'window' | 'element';
  /** A key the embed does not use, after it was not used (the iframe forwards it to its host). */
  onUnusedKey?: (e: KeyboardEvent) => void;
  /** The view's root element, for a host bridge that measures it. */
  rootRef?: RefObject<HTMLDivElement | null>;
  /** The view's accessible name (default "LoadBalancer data path, embedded"); unique per page. */
  label?: string;
  /** Called once, after the first commit (the element's `lb-datapath:ready`). */
  onMounted?: () => void;
  /**
   * The view is the whole page (the iframe): its root is the page's `<main>` with an `<h1>`.
   * Else (the element, inside a host's page) a labelled region, with no heading of its own.
   */
  ownPage: boolean;
}

/** The embed's view (see the module comment). */
export function EmbedView({
  options,
  problems,
  fullAppHref,
  keyScope,
  onUnusedKey,
  rootRef,
  ownPage,
  onMounted,
  label = 'LoadBalancer data path, embedded',
}: EmbedViewProps) {
  const store = useAppStoreApi();
  const headingId = `${useId()}-narration`;
  const ownRef = useRef<HTMLDivElement>(null);
  const ref = rootRef ?? ownRef;
  usePlaybackClock(store);
  const mounted = useRef(onMounted);
  useEffect(() => mounted.current?.(), []);
  const unused = useRef(onUnusedKey);
  useEffect(() => {
    unused.current = onUnusedKey;
  }, [onUnusedKey]);

  useEffect(() => {
    const target: HTMLElement | Window | null = keyScope === 'window' ? window : ref.current;
    if (!target) return;
    const onKey = (e: Event) => {
      const k = e as KeyboardEvent;
      if (!handlePlayerKey(store, k)) unused.current?.(k);
      // In the host's own page (the element), a key the player used must not also turn the
      // host's slide; the rest go on to it.
      else if (keyScope === 'element') k.stopPropagation();
    };
    target.addEventListener('keydown', onKey);
    return () => target.removeEventListener('keydown', onKey);
  }, [store, keyScope, ref]);

  const openFull = (e: React.MouseEvent<HTMLAnchorElement>) => {
    // The link's href is the state on load; the view may have moved since.
    e.currentTarget.href = fullAppHref(selectShareHash(store.getState()));
  };

  const Root = ownPage ? 'main' : 'div';
  // A landmark only on its own page: on a host's page, several embeds' "Narration" regions
  // would share a name (the heading still marks it).
  const Caption = ownPage ? 'section' : 'div';
  return (
    <Root
      ref={ref}
      className="app embed"
      data-theme={options.theme === 'auto' ? 'system' : options.theme}
      data-testid="embed"
      data-controls={options.controls}
      role={ownPage ? undefined : 'region'}
      aria-label={label}
      // Focusable, so a click anywhere in it gives it the keys (the element's keys are its own).
      tabIndex={-1}
    >
      {ownPage && <h1 className="visually-hidden">LoadBalancer data path</h1>}
      {problems.length > 0 && (
        <div role="status">
          <ul className="embed-problems">
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <ErrorBoundary name="the topology">
        <Topology />
      </ErrorBoundary>
      {options.controls === 'full' && (
        <ErrorBoundary name="the playback controls">
          <PlaybackControls />
        </ErrorBoundary>
      )}
      {options.controls === 'minimal' && <MinimalControls />}
      <Caption
        className="embed-caption"
        data-testid="narration"
        aria-labelledby={ownPage ? headingId : undefined}
      >
        <h2 id={headingId} className="visually-hidden">
          Narration
        </h2>
        <ErrorBoundary name="the narration">
          <Narration />
          <OutcomeBanner />
        </ErrorBoundary>
      </Caption>
      <p className="embed-footer">
        <a
          href={fullAppHref(selectShareHash(store.getState()))}
          target="_blank"
          rel="noopener"
          onClick={openFull}
          onAuxClick={openFull}
        >
          Open in the full app
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>
    </Root>
  );
}
