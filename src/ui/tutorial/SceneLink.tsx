import type { ReactNode } from 'react';
import { DISPLACED_NOTE, useReader } from './context';
import { revealStage } from './layout';
import { resolveErrors, resolveScene } from './scenes';
import { useScene } from './useScene';

/** The visible text of a link's children, for the announcement. */
export function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node)
    return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

const PLAY = /^\s*▶\uFE0E?\s*/;

/**
 * The link's children without a leading "▶" the author wrote (the link draws its own mark), so
 * "[▶ step 3](scene:…)" reads "▶ step 3", not "▶ ▶ step 3".
 */
export function withoutPlayMark(node: ReactNode): ReactNode {
  if (typeof node === 'string') return node.replace(PLAY, '');
  if (Array.isArray(node) && node.length > 0) {
    const [first, ...rest] = node as ReactNode[];
    return typeof first === 'string' ? [first.replace(PLAY, ''), ...rest] : node;
  }
  return node;
}

/**
 * A scene link, `[text](scene:policy=Local&step=last)`: a button "▶ text" that puts the
 * visualiser in the state the query names (`openView` on the app's store) and brings it into view
 * when it is off screen (stacked layout). A link that does not resolve shows as broken text, with
 * the problem in its title and in hidden text.
 *
 * For tests: `data-scene-query` (the part after `scene:`) and `data-scene-state`
 * (`pending`, `ok`, `error`).
 */
export function SceneLink({ query, children: given }: { query: string; children: ReactNode }) {
  const { openInVisualiser, announce } = useReader();
  const children = withoutPlayMark(given);
  const state = useScene(query);
  if (state.status === 'error')
    return (
      <span
        className="scene-link broken"
        title={`Broken scene link: ${state.message}`}
        data-scene-query={query}
        data-scene-state="error"
      >
        <span aria-hidden="true">⚠ </span>
        {children}
        <span className="visually-hidden"> (broken scene link: {state.message})</span>
      </span>
    );
  const open = async (origin: HTMLElement) => {
    const r =
      state.status === 'ok' ? { ok: true as const, scene: state.scene } : await resolveScene(query);
    if (!r.ok) return announce(`This scene could not be opened: ${resolveErrors(r)}`);
    const displaced = openInVisualiser(r.scene.state);
    announce(
      `The visualiser now shows: ${textOf(children).trim()}.${displaced ? DISPLACED_NOTE : ''}`,
    );
    revealStage(origin);
  };
  return (
    <button
      type="button"
      className="scene-link"
      data-scene-query={query}
      data-scene-state={state.status}
      title="Show this in the visualiser"
      onClick={(e) => void open(e.currentTarget)}
    >
      <span aria-hidden="true">▶ </span>
      {children}
    </button>
  );
}
