/**
 * The app's state: a zustand store made by {@link createAppStore}, reached from React through
 * one hook, {@link useAppStore}, with module-level selectors (`selectors.ts`) and user
 * commands as records (`commands.ts`).
 */
export { createAppStore } from './store';
export type { AppStoreOptions } from './store';
export {
  BUSY_AFTER_MS,
  StoreProvider,
  useAppStore,
  useAppStoreApi,
  useModelBusy,
  useRulesUnder,
} from './hooks';
export type { RulesUnder } from './hooks';
export * from './selectors';
export * from './types';
export { TIME_SPEEDS } from './timelineSlice';
