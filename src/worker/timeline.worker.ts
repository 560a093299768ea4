/**
 * The time view's Web Worker: answers {@link ToTimelineWorker} messages from
 * `timelineClient.ts` with {@link TimelineHandler} (the model's `simulate`, off the page's main
 * thread) and posts each answer in parts ({@link timelineOutgoing}). Started by the time view's
 * lazy chunk the first time the view opens.
 */
import { TimelineHandler, timelineOutgoing } from './timelineHandler';
import type { ToTimelineWorker } from './timelineProtocol';

const handler = new TimelineHandler();

self.onmessage = (e: MessageEvent<ToTimelineWorker>) => {
  const reply = handler.handle(e.data);
  if (reply) for (const m of timelineOutgoing(reply)) self.postMessage(m);
};
