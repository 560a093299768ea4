/** The in-process engine: `runScene` in this thread, memoised per (objects, scene) (`derive.ts`). */
import { derive } from './derive';
import type { SyncEngine } from './engine';

export const inProcessEngine: SyncEngine = { kind: 'sync', derive };
