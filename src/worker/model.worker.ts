/**
 * The model's Web Worker: receives {@link ToWorker} messages from `client.ts` and answers
 * each with the model's handler (runScene in this thread, off the page's main thread), then
 * counts the rules of the first few nodes the answer lacked, one node per task
 * (`serveMessages` in ./handler.ts, shared with the in-thread fallback).
 */
import { serveMessages } from './handler';
import type { FromWorker, ToWorker } from './protocol';

const serve = serveMessages((m: FromWorker) => self.postMessage(m));

self.onmessage = (e: MessageEvent<ToWorker>) => serve(e.data);
