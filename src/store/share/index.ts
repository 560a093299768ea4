/**
 * Share by link and the saved last view: `link.ts` (the `#s=` codec, pure), `persist.ts`
 * (localStorage), `view.ts` (store ⇄ view), `boot.ts` (which view the app opens on).
 */
export {
  HASH_PREFIX,
  MAX_OBJECTS,
  decodeState,
  encodeState,
  shareLink,
  tooManyObjects,
  validateSharedState,
} from './link';
export type { DecodeResult, SharedState, SharedTime } from './link';
export { LINK_NOT_READY } from './link';
export { compressorReady, loadCompressor, onCompressorReady } from './compress';
export { STORAGE_KEY, browserStorage, loadSaved, saveView, tabStorage } from './persist';
export type { Restored, StorageLike } from './persist';
export {
  isCanonical,
  openView,
  selectShareHash,
  snapshot,
  storeForView,
  timeSnapshot,
} from './view';
export { badLinkNotice, boot, defaultStore } from './boot';
export type { Boot } from './boot';
