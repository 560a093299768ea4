/**
 * The importer's Web Worker: a thin adapter that runs {@link analyse} (pure, in ./analyse.ts)
 * off the main thread. Remembers the last text's analysis, so that Apply, which asks for the
 * objects of the text just checked, does not parse it again. Protocol: ./analyseClient.ts.
 */
import { analyse } from './analyse';
import type { Analysis } from './analyse';
import { shown } from './limits';
import type { AnalyseRequest, AnalyseReply } from './analyseClient';
import { PART_ITEMS, splitArrays } from '../../worker/parts';
import { sceneForObjects } from '../../store/sceneForObjects';

let last: Analysis | undefined;

const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<AnalyseRequest>) => void) | null;
  postMessage: (m: AnalyseReply) => void;
};

scope.onmessage = (e) => {
  const { id, text, objects } = e.data;
  const a = last !== undefined && last.text === text ? last : analyse(text);
  last = a;
  const answer = shown(a, objects);
  // The scene is read here, where the objects are: resolving 10,000 Pods on the main thread
  // is ~50 ms of the task that applies them.
  if (objects && !a.blocked)
    try {
      answer.scene = sceneForObjects(a.objects, 0);
    } catch (_) {
      // Applying them will say why (it reads the scene again).
    }
  // The objects in parts: one clone of 10,000 Pods is one long task on the main thread. The
  // text stays behind: the client has it.
  const { value, parts } = splitArrays({ ...answer, text: '' }, PART_ITEMS, 1);
  for (const part of parts) scope.postMessage({ id, part });
  scope.postMessage({ id, analysis: value });
};
