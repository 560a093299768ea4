/**
 * The iframe embed's side of the postMessage API (./protocol.ts): tells the host when it is
 * ready, each step, its height; carries out the host's commands; forwards unused keys.
 *
 * Origins: with `origin=` (./options.ts) only those origins' messages are obeyed, and messages
 * are posted to those origins only; without it, any parent may drive it and messages go to
 * `'*'` (the embed holds nothing private: the scene is in its own URL). Only the parent window
 * is obeyed, never another frame.
 */
import { useCallback, useEffect } from 'react';
import type { RefObject } from 'react';
import { whenModel } from '../store/modelSync';
import type { AppStore } from '../store/types';
import { applyHostMessage, stepReporter, whereNow } from './protocol';
import type { ToHost } from './protocol';

/** Posts `m` to `parent` for each allowed origin (or `'*'` when any is allowed). */
export function postToHost(parent: Window, origins: string[] | null, m: ToHost): void {
  if (origins === null) return parent.postMessage(m, '*');
  for (const o of origins) parent.postMessage(m, o);
}

/** Whether a message from `origin` may drive the embed. */
export function originAllowed(origins: string[] | null, origin: string): boolean {
  return origins === null || origins.includes(origin);
}

/**
 * Wires the embed in `rootRef` to its parent window. No-op when the page is not in a frame.
 * @returns the handler for keys the embed did not use (forwarded to the host).
 */
export function useHostBridge(
  store: AppStore,
  origins: string[] | null,
  rootRef: RefObject<HTMLDivElement | null>,
): (e: KeyboardEvent) => void {
  const parent = typeof window !== 'undefined' && window.parent !== window ? window.parent : null;

  useEffect(() => {
    if (!parent) return;
    const post = (m: ToHost) => postToHost(parent, origins, m);
    const onMessage = (e: MessageEvent) => {
      if (e.source !== parent || !originAllowed(origins, e.origin)) return;
      const error = applyHostMessage(store, e.data);
      if (error) post({ type: 'lb-datapath:error', message: error });
    };
    window.addEventListener('message', onMessage);

    const sendStep = stepReporter(store, (e) => post({ type: 'lb-datapath:step', ...e }));
    const unsubscribe = store.subscribe(sendStep);
    whenModel(store, () => {
      post({ type: 'lb-datapath:ready', ...whereNow(store) });
      sendStep();
    });

    const el = rootRef.current;
    let height = 0;
    const sendHeight = () => {
      if (!el) return;
      const h = Math.ceil(el.getBoundingClientRect().height);
      if (h === height || h < 1) return;
      height = h;
      post({ type: 'lb-datapath:resize', height: h });
    };
    const ro = typeof ResizeObserver === 'function' && el ? new ResizeObserver(sendHeight) : null;
    if (el) ro?.observe(el);
    sendHeight();
    return () => {
      window.removeEventListener('message', onMessage);
      unsubscribe();
      ro?.disconnect();
    };
  }, [store, parent, origins, rootRef]);

  return useCallback(
    (e: KeyboardEvent) => {
      if (!parent) return;
      postToHost(parent, origins, {
        type: 'lb-datapath:key',
        key: e.key,
        code: e.code,
        shiftKey: e.shiftKey,
        altKey: e.altKey,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
      });
    },
    [parent, origins],
  );
}
