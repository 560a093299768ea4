/**
 * Binding a walkthrough to the cluster it runs on. A {@link WalkthroughTemplate} tells its
 * story in terms of *roles* ("a node with no Pod of the Service", "the node the balancer picks
 * and its local endpoint"); {@link bindWalkthrough} finds, in one resolved {@link Cluster}, the
 * node, endpoint and address that plays each role and returns the steps with the cluster's own
 * names and addresses, or, for a step whose roles the cluster cannot fill, `applies: false` and
 * the plain reason.
 *
 * Every role is chosen deterministically (first by node order, then endpoint order as the
 * EndpointSlices list them), and only among choices the model honours, so a bound step's pins
 * never depend on the seed:
 * - the balancer target (`lbNode`) is eligible in the balancer's rotation: registered (not
 *   labelled `node.kubernetes.io/exclude-from-external-load-balancers`, the service
 *   controller's rule) and passing its health check (`targetCandidates`, reference §2);
 * - a pinned endpoint is a ready endpoint of the Service port. The story's scene uses
 *   `externalTrafficPolicy: Cluster`, under which a node's KUBE-EXT/KUBE-SVC chain picks from
 *   every ready endpoint in the cluster (reference §1.3, §1.5 `CategorizeEndpoints`), so any
 *   ready endpoint can be pinned on any node;
 * - a node "without a Pod" (`emptyNode`) is a Ready node with no ready endpoint of the
 *   Service port: kube-proxy still writes its KUBE-NODEPORTS rule there (reference §1.3,
 *   "Capture nodeports"), and under Cluster it DNATs to an endpoint on another node and
 *   masquerades (KUBE-EXT "masquerade traffic for … external destinations").
 *
 * Facts: /work/shared/reference/kube-proxy.md (§1.3 per-service rules, §1.5 endpoint selection,
 * §2 health checks); the seed's five-step story (shared/seeds/004_83d1a20af1ffbd47.txt).
 *
 * The roles are chosen in ./roles.ts, the texts rendered in ./render.ts; this module binds the
 * steps. Pure: no React, no DOM, no clock, no randomness.
 */
import type { Cluster } from '../scenario/cluster';
import { DEFAULT_SCENE } from '../scenario/scene';
import type { SceneOptions } from '../scenario/scene';
import type { ScenarioObject } from '../k8s/objects';
import { resolveCluster } from '../scenario/resolve';
import type { Place, Transform } from '../trace/types';
import type { Focus, StoryStep } from './types';
import type { RoleName, Roles } from './roles';
import { storyRoles } from './roles';
import type { TextTemplate } from './render';
import { fill, fillDeep, render, Unbound } from './render';

export type { RoleName, Roles } from './roles';
export { storyRoles } from './roles';
export type { TextPart, TextTemplate } from './render';

/**
 * One step of a walkthrough template: a {@link StoryStep} whose texts are templates and whose
 * scene and `show.at` strings may hold `{role}` placeholders (e.g. `dial: { kind: 'NodePort',
 * nodeName: '{emptyNode}' }`, `show: { at: 'node:{emptyNode}', transform: 'DNAT' }`).
 * A step applies when every role its scene, `show`, body (outside the parts not taken) and
 * `needs` name is bound. Its title must render with no role bound (use conditional parts): a
 * step that does not apply is still listed by its title.
 */
export interface StoryTemplate {
  id: string;
  title: TextTemplate;
  body: TextTemplate;
  scene: Partial<SceneOptions>;
  show: { at: 'start' } | { at: string; transform?: Transform };
  focus?: Focus[];
  /** Roles the step needs although no text names them (e.g. `lbService`). */
  needs?: readonly RoleName[];
}

/**
 * What the walkthrough offers after its last step: the tutorial chapter that carries the story
 * on (its slug, `content/chapters/NN-<slug>.md`, opened at `#/learn/<slug>`) and its title.
 */
export interface WhatNextTemplate {
  chapter: string;
  chapterTitle: string;
}

/** A walkthrough as templates over roles (see {@link bindWalkthrough}). */
export interface WalkthroughTemplate {
  id: string;
  title: string;
  steps: readonly StoryTemplate[];
  whatNext: WhatNextTemplate;
}

/** A step bound to a cluster: the {@link StoryStep} with the cluster's own names. */
export interface ApplicableStep extends StoryStep {
  applies: true;
}

/** A step the cluster cannot tell: its title (with no role filled) and why. */
export interface InapplicableStep {
  id: string;
  title: string;
  applies: false;
  /** One plain sentence: what the cluster lacks, e.g. "Every node in your cluster runs a web Pod, …". */
  reason: string;
  /** The role that could not be bound. */
  missing: RoleName;
  focus?: Focus[];
}

export type BoundStep = ApplicableStep | InapplicableStep;

/**
 * What to offer after the last step that applies:
 * - `lastStep`: its index (-1 when no step applies);
 * - `dnatStep`: the last applicable step that shows a DNAT (-1 when none): the connection
 *   "what next" replays under `externalTrafficPolicy: Local`;
 * - `failNode`: the node that DNATs on that step (the one to fail), when any.
 */
export interface WhatNext extends WhatNextTemplate {
  lastStep: number;
  dnatStep: number;
  failNode?: string;
}

/** A walkthrough bound to one cluster. */
export interface BoundWalkthrough {
  id: string;
  title: string;
  steps: BoundStep[];
  roles: Roles;
  whatNext: WhatNext;
}

/** One step bound to `roles`. */
export function bindStep(t: StoryTemplate, roles: Roles): BoundStep {
  const { values } = roles;
  const focus = t.focus ? { focus: [...t.focus] } : {};
  let title: string;
  try {
    title = render(t.title, values);
  } catch (e) {
    if (!(e instanceof Unbound)) throw e;
    title = render(t.title, {});
  }
  try {
    for (const r of t.needs ?? []) if (values[r] === undefined) throw new Unbound(r);
    const scene = fillDeep(t.scene, values);
    const at = t.show.at;
    const transform = 'transform' in t.show ? t.show.transform : undefined;
    const show: StoryStep['show'] =
      at === 'start'
        ? { at: 'start' }
        : { at: fill(at, values) as Place, ...(transform ? { transform } : {}) };
    const body = render(t.body, values);
    return { applies: true, id: t.id, title, body, scene, show, ...focus };
  } catch (e) {
    if (!(e instanceof Unbound)) throw e;
    return {
      applies: false,
      id: t.id,
      title,
      reason: roles.why[e.role] ?? `The story's ${e.role} has no counterpart in your cluster.`,
      missing: e.role,
      ...focus,
    };
  }
}

/**
 * Binds every step of `walkthrough` to `cluster` (for the Service `service`, default: the one
 * `runScene` traces). Steps keep their order and number, applicable or not, so a step's index
 * means the same in every cluster.
 * @returns `{ id, title, steps: BoundStep[], roles, whatNext }`.
 * @throws {Error} when the cluster has no Service.
 */
export function bindWalkthrough(
  walkthrough: WalkthroughTemplate,
  cluster: Cluster,
  service?: string,
): BoundWalkthrough {
  const roles = storyRoles(cluster, service);
  const steps = walkthrough.steps.map((t) => bindStep(t, roles));
  let lastStep = -1;
  let dnatStep = -1;
  steps.forEach((s, i) => {
    if (!s.applies) return;
    lastStep = i;
    if (s.show.at !== 'start' && s.show.transform === 'DNAT') dnatStep = i;
  });
  const dnat = steps[dnatStep];
  const failNode =
    dnat?.applies && dnat.show.at.startsWith('node:')
      ? dnat.show.at.slice('node:'.length)
      : undefined;
  return {
    id: walkthrough.id,
    title: walkthrough.title,
    steps,
    roles,
    whatNext: {
      ...walkthrough.whatNext,
      lastStep,
      dnatStep,
      ...(failNode !== undefined ? { failNode } : {}),
    },
  };
}

/**
 * The story's world for `objects`: the objects resolved as they are. Every story step's scene
 * is {@link DEFAULT_SCENE} with the step's toggles, and of what DEFAULT_SCENE writes onto the
 * objects (`applyScene`) only the policy changes a role (the balancer's rotation), which
 * {@link storyRoles} takes as Cluster itself; ipMode, delivery and the kube-proxy mode change
 * no role, and DEFAULT_SCENE fails no node. So the objects need no copy (`applyScene` clones
 * them: 0.3–0.5 s for 1,000 nodes and 10,000 endpoints, against 30–130 ms to resolve).
 * @throws {ScenarioError} when the objects cannot be resolved.
 */
export function storyCluster(objects: readonly ScenarioObject[]): Cluster {
  return resolveCluster(objects);
}

/**
 * {@link bindWalkthrough} for a scenario's objects, resolved under the story's scene
 * ({@link storyCluster}).
 * @throws {ScenarioError} when the objects cannot be resolved; {@link Error} without a Service.
 */
export function bindToObjects(
  walkthrough: WalkthroughTemplate,
  objects: readonly ScenarioObject[],
  service?: string,
): BoundWalkthrough {
  return bindWalkthrough(walkthrough, storyCluster(objects), service);
}

/** The scene a bound step opens: `base` (default {@link DEFAULT_SCENE}) with the step's toggles. */
export function storyScene(step: ApplicableStep, base: SceneOptions = DEFAULT_SCENE): SceneOptions {
  return { ...base, ...step.scene };
}

/**
 * `walkthrough` with no step applicable, each for `reason` (e.g. the objects cannot be
 * resolved): what the panel shows instead of a story that cannot run.
 */
export function unboundWalkthrough(
  walkthrough: WalkthroughTemplate,
  reason: string,
): BoundWalkthrough {
  const roles: Roles = { service: '', values: {}, why: {} };
  return {
    id: walkthrough.id,
    title: walkthrough.title,
    steps: walkthrough.steps.map((t) => {
      const bound = bindStep({ ...t, needs: ['serviceName'] }, roles);
      return { ...bound, applies: false, reason, missing: 'serviceName' } as InapplicableStep;
    }),
    roles,
    whatNext: { ...walkthrough.whatNext, lastStep: -1, dnatStep: -1 },
  };
}
