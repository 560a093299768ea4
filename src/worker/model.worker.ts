/**
 * The model's Web Worker: receives {@link ToWorker} messages from `client.ts` and answers
 * each with {@link ModelHandler} (runScene in this thread, off the page's main thread).
 * After a scene's answer it counts the rules of the first few nodes (the ones the stage may
 * draw in full), one node per task, so a newer request that arrives meanwhile is served first
 * (the counting for the older one is dropped).
 */
import { laterCounts, ModelHandler, outgoing, ruleCountOf } from './handler';
import type { FromWorker, ToWorker } from './protocol';

const handler = new ModelHandler();
/** Bumped by every request: background counting for an older one stops. */
let generation = 0;

function post(m: FromWorker): void {
  self.postMessage(m);
}

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const msg = e.data;
  if (msg.type === 'scene' || msg.type === 'rules') generation++;
  const reply = handler.handle(msg);
  if (!reply) return;
  for (const m of outgoing(reply)) post(m);
  if (msg.type !== 'scene' || reply.type !== 'scene') return;
  const result = handler.run(msg.objects, msg.scene);
  if (!result || result instanceof Error) return;
  const todo = laterCounts(result, reply.reply);
  const mine = generation;
  const step = () => {
    if (generation !== mine) return;
    const node = todo.shift();
    if (node === undefined) return;
    const c = ruleCountOf(result, node);
    if (c) post({ type: 'counts', req: msg.req, counts: { [node]: c } });
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
};
