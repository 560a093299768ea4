import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
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

/** The one hook: reads a slice of the store through a module-level selector. */
export function useAppStore<T>(selector: (s: Store) => T): T {
  return useStore(useAppStoreApi(), selector);
}
