/**
 * The messages between the main thread (`client.ts`) and the model worker
 * (`model.worker.ts`, which answers with `handler.ts`). A hand-written postMessage protocol
 * rather than an RPC library: there are three requests, and the one thing it must do well —
 * a newer request supersedes an older one — is done by the client keeping at most one request
 * in flight per slot (see client.ts), which no RPC wrapper does for us.
 *
 * Objects are sent once per array reference (`objects` message, by id) and requests name
 * them by id, so a toggle on a 10,000-Pod cluster sends a scene, not the cluster. Everything
 * here is structured-cloneable; rule listings travel packed as strings (`PackedRules`),
 * which clone far faster than 40,000 small objects. Large arrays go in parts, each message
 * its own task on the main thread: an object set in `objects` parts, a reply's Pods,
 * endpoints and the like in `part` messages before it (parts.ts).
 */
import type { ScenarioObject } from '../model/k8s/objects';
import type { SceneOptions } from '../model/scenario/scene';
import type { Cluster } from '../model/scenario/cluster';
import type { Candidate, Trace } from '../model/trace/types';
import type { ProxyMode } from '../model/kube-proxy/types';
import type { ArrayPart } from './parts';

/** Objects per `objects` message (a part of 1,000 Pods clones in a few ms). */
export const OBJECTS_PER_PART = 1_000;

/** A node's rules, packed: the lines' texts, rule ids and chains, each joined by `\n`. */
export interface PackedRules {
  mode: ProxyMode;
  nodeName: string;
  text: string;
  /** One entry per line, `''` where the line has no rule id. */
  ruleIds: string;
  /** One entry per line, `''` where the line has no chain. */
  chains: string;
}

/** The worker's answer for one scene (structured-cloneable). */
export type SceneReply =
  | {
      ok: true;
      cluster: Cluster;
      trace: Trace;
      serviceKey: string;
      lbTargets: Candidate[];
      /** Full rules of the nodes asked for (and of the path, when small). */
      rules: PackedRules[];
      /** Rule lines with an id, per node, for the nodes generated. */
      ruleCounts: Record<string, { mode: string; rules: number }>;
    }
  | { ok: false; error: string };

/** A node's rules, or why not. */
export type RulesReply = { ok: true; rules: PackedRules } | { ok: false; error: string };

export type ToWorker =
  /**
   * An object set, or a part of one (`more`: further parts follow, in order): a set is sent
   * in parts of {@link OBJECTS_PER_PART}, one per task, so no single clone blocks the page.
   */
  | { type: 'objects'; id: number; objects: ScenarioObject[]; more?: boolean }
  | { type: 'forget'; id: number }
  | {
      type: 'scene';
      req: number;
      objects: number;
      scene: SceneOptions;
      nodes: string[];
      /**
       * Which of the page's stores asks (the app's, each live scene of the tutorial, …): a newer
       * scene from the same one stops the rule counting for its older one, not for another's.
       */
      channel?: number;
    }
  | { type: 'rules'; req: number; objects: number; scene: SceneOptions; node: string };

export type FromWorker =
  /** A part of a large array of the reply to `req`, sent before it (parts.ts). */
  | { type: 'part'; req: number; part: ArrayPart }
  | { type: 'scene'; req: number; reply: SceneReply }
  | { type: 'rules'; req: number; reply: RulesReply }
  /** More rule counts for the scene answered by `req` (sent after its answer, one by one). */
  | { type: 'counts'; req: number; counts: Record<string, { mode: string; rules: number }> }
  /** The worker does not hold these objects (it was restarted): send them and ask again. */
  | { type: 'missing'; req: number; objects: number };
