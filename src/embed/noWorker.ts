/**
 * The `<lb-datapath>` element's stand-in for `src/worker/earlyWorker.ts` (scripts/embedElement.ts
 * aliases it): no worker. The element is one ES module file a docs author copies, so the model
 * answers in the page's thread (`createWorkerEngine` falls back to its in-thread transport when
 * there is no worker; a docs page's scene is small).
 */

/** Always undefined: the element starts no worker. */
export function takeModelWorker(): Worker | undefined {
  return undefined;
}
