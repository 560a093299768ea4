import { useEffect, useState } from 'react';
import type { ResolvedScene } from '../../tutorial';
import { resolveErrors, resolveScene } from './scenes';

/** A scene query being resolved, resolved, or not resolvable (with why). */
export type SceneState =
  | { status: 'pending' }
  | { status: 'ok'; scene: ResolvedScene }
  | { status: 'error'; message: string };

/** Resolves `query` (once per query; example scenarios are fetched and cached). */
export function useScene(query: string | undefined): SceneState {
  const [state, setState] = useState<{ query: string | undefined; value: SceneState }>({
    query,
    value: { status: 'pending' },
  });
  useEffect(() => {
    if (query === undefined) return;
    let live = true;
    void resolveScene(query).then((r) => {
      if (!live) return;
      setState({
        query,
        value: r.ok
          ? { status: 'ok', scene: r.scene }
          : { status: 'error', message: resolveErrors(r) },
      });
    });
    return () => {
      live = false;
    };
  }, [query]);
  if (query === undefined) return { status: 'error', message: 'no scene given' };
  return state.query === query ? state.value : { status: 'pending' };
}
