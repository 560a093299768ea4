import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { ModeRuleset } from '../model/kube-proxy/types';
import type { SceneOptions } from '../model/scenario/scene';
import { requestRules } from './modelSync';
import { selectModelPending } from './selectors';
import type { AppStore, Store } from './types';

const StoreContext = createContext<AppStore | null>(null);

/** Provides one store to the tree below. */
export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

/** The store instance itself, for commands. */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore must be used inside <StoreProvider>');
  return store;
}

/**
 * The one hook: reads a slice of the store through a module-level selector.
 *
 * Zustand's own `useStore` does this too, but reads the store's *initial* state while
 * rendering on a server and while hydrating. The prerendered page (src/prerender/) is rendered
 * from the state with the model's first answer, and the page hydrates it once that answer has
 * landed (src/main.tsx), so both sides read the current state.
 */
export function useAppStore<T>(selector: (s: Store) => T): T {
  const api = useAppStoreApi();
  const read = useCallback(() => selector(api.getState()), [api, selector]);
  return useSyncExternalStore(api.subscribe, read, read);
}

/** What {@link useRulesUnder} knows: the rules, none (`null`: the scene has no such node), or not yet. */
export type RulesUnder = ModeRuleset | null | 'pending';

/**
 * `node`'s rules under another `scene` over the objects on screen (the rules panel's
 * comparison): computed at once with a sync engine, fetched from the worker otherwise
 * (`'pending'` until it answers; a newer call supersedes an older one). Undefined `scene`:
 * nothing asked.
 */
export function useRulesUnder(scene: SceneOptions | undefined, node: string): RulesUnder {
  const store = useAppStoreApi();
  const objects = useAppStore((s) => s.objects);
  const compute = useAppStore((s) => s.model.compute);
  const [got, setGot] = useState<{ key: unknown[]; rules: ModeRuleset | null } | null>(null);
  const key = [objects, scene, node];
  const fresh = got !== null && got.key.every((k, i) => k === key[i]);
  useEffect(() => {
    if (!scene || compute) return;
    let live = true;
    requestRules(store, 'compare', objects, scene, node, (r) => {
      if (live) setGot({ key: [objects, scene, node], rules: r.ok ? r.rules : null });
    });
    return () => {
      live = false;
    };
  }, [store, objects, scene, node, compute]);
  if (!scene) return null;
  if (compute) {
    const d = compute(objects, scene);
    return d.ok ? (d.result.rules[node] ?? null) : null;
  }
  return fresh ? got.rules : 'pending';
}

/** How long a computation may take before the page says it is computing, ms. */
export const BUSY_AFTER_MS = 300;

/**
 * True once the model answer for the current state has been pending for
 * {@link BUSY_AFTER_MS} (never with a sync engine): when to show "Computing…".
 */
export function useModelBusy(): boolean {
  const pending = useAppStore(selectModelPending);
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!pending) return;
    const t = setTimeout(() => setLate(true), BUSY_AFTER_MS);
    return () => {
      clearTimeout(t);
      setLate(false);
    };
  }, [pending]);
  return pending && late;
}
