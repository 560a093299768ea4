/**
 * User commands as records (Excalidraw's actions): one definition shared by the buttons, the
 * keyboard handler and the tests. `perform` changes the store; `enabled` says whether it can.
 * Parametrised commands (fail a node, pin a choice) are made by small factories.
 */
import type { Choices, DialTarget, SceneOptions } from '../model/scenario/scene';
import { storyStepIndex } from '../model/walkthrough/types';
import { whenModel } from './modelSync';
import {
  selectCluster,
  selectStepCount,
  selectStory,
  selectTrace,
  storyStepScene,
} from './selectors';
import { SPEEDS } from './types';
import type { AppStore, Speed, StepPolicy, Store } from './types';

export interface Command {
  /** Stable id, also used as `data-command` on buttons. */
  id: string;
  /** What a button says (may depend on state: Play / Pause). */
  label: (s: Store) => string;
  /** The shortcut as shown to people, e.g. `Space`, `→`. */
  shortcut?: string;
  /** `KeyboardEvent.key` values that trigger it. */
  keys?: readonly string[];
  perform: (store: AppStore) => void;
  enabled: (store: AppStore) => boolean;
}

const always = () => true;
const label = (text: string) => () => text;

function step(store: AppStore, index: number): void {
  const s = store.getState();
  s.setPlaying(false);
  s.setStepIndex(index);
}

/**
 * Applies a scene change made by the person (not by the walkthrough): the walkthrough no
 * longer describes what is on screen, so it lets go of its step.
 */
export function changeScene(
  store: AppStore,
  patch: Partial<SceneOptions>,
  policy: StepPolicy = 'ends',
): void {
  const s = store.getState();
  s.setScene({ ...s.scene, ...patch }, policy);
  s.setWalkthroughStep(null);
}

export const playPause: Command = {
  id: 'play-pause',
  label: (s) => (s.playback.playing ? 'Pause' : 'Play'),
  shortcut: 'Space',
  keys: [' '],
  enabled: (store) => selectStepCount(store.getState()) > 0,
  perform: (store) => {
    const s = store.getState();
    if (s.playback.playing) return s.setPlaying(false);
    if (s.playback.stepIndex >= selectStepCount(s) - 1) s.setStepIndex(-1);
    s.setPlaying(true);
  },
};

export const next: Command = {
  id: 'next',
  label: label('Next step'),
  shortcut: '→',
  keys: ['ArrowRight'],
  enabled: (store) => {
    const s = store.getState();
    return s.playback.stepIndex < selectStepCount(s) - 1;
  },
  perform: (store) => step(store, store.getState().playback.stepIndex + 1),
};

export const prev: Command = {
  id: 'prev',
  label: label('Previous step'),
  shortcut: '←',
  keys: ['ArrowLeft'],
  enabled: (store) => store.getState().playback.stepIndex > -1,
  perform: (store) => step(store, store.getState().playback.stepIndex - 1),
};

export const first: Command = {
  id: 'first',
  label: label('Restart'),
  shortcut: 'Home',
  keys: ['Home'],
  enabled: (store) => store.getState().playback.stepIndex > -1,
  perform: (store) => step(store, -1),
};

export const last: Command = {
  id: 'last',
  label: label('Last step'),
  shortcut: 'End',
  keys: ['End'],
  enabled: (store) => {
    const s = store.getState();
    return s.playback.stepIndex < selectStepCount(s) - 1;
  },
  perform: (store) => step(store, selectStepCount(store.getState()) - 1),
};

function shiftSpeed(speed: Speed, by: 1 | -1): Speed {
  const i = SPEEDS.indexOf(speed) + by;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, i))] ?? speed;
}

export const faster: Command = {
  id: 'faster',
  label: label('Faster'),
  shortcut: '>',
  keys: ['>', '+'],
  enabled: (store) => store.getState().playback.speed < SPEEDS[SPEEDS.length - 1]!,
  perform: (store) => {
    const s = store.getState();
    s.setSpeed(shiftSpeed(s.playback.speed, 1));
  },
};

export const slower: Command = {
  id: 'slower',
  label: label('Slower'),
  shortcut: '<',
  keys: ['<', '-'],
  enabled: (store) => store.getState().playback.speed > SPEEDS[0],
  perform: (store) => {
    const s = store.getState();
    s.setSpeed(shiftSpeed(s.playback.speed, -1));
  },
};

export const setSpeed = (speed: Speed): Command => ({
  id: `speed-${speed}`,
  label: label(`${speed}×`),
  enabled: always,
  perform: (store) => store.getState().setSpeed(speed),
});

export const togglePolicy: Command = {
  id: 'toggle-policy',
  label: (s) =>
    `Switch externalTrafficPolicy to ${s.scene.externalTrafficPolicy === 'Cluster' ? 'Local' : 'Cluster'}`,
  shortcut: 'P',
  keys: ['p', 'P'],
  enabled: always,
  perform: (store) =>
    changeScene(store, {
      externalTrafficPolicy:
        store.getState().scene.externalTrafficPolicy === 'Cluster' ? 'Local' : 'Cluster',
    }),
};

export const setPolicy = (
  externalTrafficPolicy: SceneOptions['externalTrafficPolicy'],
): Command => ({
  id: `policy-${externalTrafficPolicy}`,
  label: label(externalTrafficPolicy),
  enabled: always,
  perform: (store) => changeScene(store, { externalTrafficPolicy }),
});

export const toggleIpMode: Command = {
  id: 'toggle-ipmode',
  label: (s) => `Switch ipMode to ${s.scene.ipMode === 'VIP' ? 'Proxy' : 'VIP'}`,
  shortcut: 'I',
  keys: ['i', 'I'],
  enabled: always,
  perform: (store) =>
    changeScene(store, { ipMode: store.getState().scene.ipMode === 'VIP' ? 'Proxy' : 'VIP' }),
};

export const setIpMode = (ipMode: SceneOptions['ipMode']): Command => ({
  id: `ipmode-${ipMode}`,
  label: label(ipMode),
  enabled: always,
  perform: (store) => changeScene(store, { ipMode }),
});

/** Which port of the traced Service the client dials (`spec.ports[].name`). */
export const setPort = (port: string): Command => ({
  id: `port-${port}`,
  label: label(`Trace port ${port}`),
  enabled: always,
  perform: (store) => changeScene(store, { port }, 'reset'),
});

/** kube-proxy's mode (`KubeProxyConfiguration.mode`): the same Service, other rules. */
export const setProxyMode = (proxyMode: NonNullable<SceneOptions['proxyMode']>): Command => ({
  id: `proxymode-${proxyMode}`,
  label: label(proxyMode),
  enabled: always,
  // Same connection, other rules: keep the step (clamped) and the walkthrough.
  perform: (store) => {
    const s = store.getState();
    s.setScene({ ...s.scene, proxyMode }, 'clamp');
  },
});

/** Delivery only matters under ipMode VIP: with Proxy the balancer always proxies to the NodePort. */
export const setDelivery = (delivery: SceneOptions['delivery']): Command => ({
  id: `delivery-${delivery}`,
  label: label(delivery),
  enabled: (store) => store.getState().scene.ipMode === 'VIP',
  perform: (store) => changeScene(store, { delivery }),
});

/**
 * What carries the connection, and so where the reply goes (`CloudLoadBalancer.spec.implementation`).
 * Direct server return and MetalLB keep the load-balancer IP as the destination, so the
 * delivery follows (the model would ignore a NodePort delivery anyway, and say so).
 */
export const setImplementation = (
  implementation: NonNullable<SceneOptions['implementation']>,
): Command => ({
  id: `implementation-${implementation}`,
  label: label(implementation),
  enabled: always,
  perform: (store) =>
    changeScene(
      store,
      implementation === 'NAT'
        ? { implementation }
        : { implementation, delivery: 'LoadBalancerIP' },
    ),
});

export const setPublished = (published: boolean): Command => ({
  id: `published-${published}`,
  label: label(published ? 'Publish status.loadBalancer' : 'Empty status.loadBalancer'),
  enabled: always,
  perform: (store) => changeScene(store, { published }),
});

/**
 * Whether `nodeName` is down in `scene`: failed by the person (`failedNodes`), or down but not
 * yet noticed by the control plane (`downNodes`, a timeline's moment opened as a trace).
 */
export function nodeIsDown(scene: Store['scene'], nodeName: string): boolean {
  return scene.failedNodes.includes(nodeName) || (scene.downNodes?.includes(nodeName) ?? false);
}

export const toggleNodeFailure = (nodeName: string): Command => ({
  id: `toggle-node-${nodeName}`,
  label: (s) => (nodeIsDown(s.scene, nodeName) ? `Restore ${nodeName}` : `Fail ${nodeName}`),
  enabled: (store) => !!selectCluster(store.getState())?.nodes.some((n) => n.name === nodeName),
  perform: (store) => {
    const scene = store.getState().scene;
    const failed = scene.failedNodes;
    if (nodeIsDown(scene, nodeName)) {
      // Restore: whichever way it is down (a node down in a timeline moment comes back too).
      const down = (scene.downNodes ?? []).filter((n) => n !== nodeName);
      changeScene(store, {
        failedNodes: failed.filter((n) => n !== nodeName),
        ...(scene.downNodes ? { downNodes: down } : {}),
      });
    } else changeScene(store, { failedNodes: [...failed, nodeName] });
  },
});

/** The dial targets that make sense for a client: ClusterIP only from inside the cluster. */
export function dialAllowed(store: AppStore, clientName: string, dial: DialTarget): boolean {
  if (dial.kind !== 'ClusterIP') return true;
  const client = selectCluster(store.getState())?.clients.find((c) => c.name === clientName);
  return client !== undefined && client.location !== 'Internet';
}

export const setClient = (client: string): Command => ({
  id: `client-${client}`,
  label: label(client),
  enabled: (store) => !!selectCluster(store.getState())?.clients.some((c) => c.name === client),
  perform: (store) => {
    const { dial } = store.getState().scene;
    changeScene(store, {
      client,
      ...(dialAllowed(store, client, dial) ? {} : { dial: { kind: 'LoadBalancer' } }),
    });
  },
});

export const setDial = (dial: DialTarget): Command => ({
  id: `dial-${dial.kind === 'NodePort' ? `NodePort-${dial.nodeName}` : dial.kind}`,
  label: label(dial.kind),
  enabled: (store) => dialAllowed(store, store.getState().scene.client, dial),
  perform: (store) => changeScene(store, { dial }),
});

type ChoiceKind = keyof Choices;

/** Pins a choice (the balancer's target node, or kube-proxy's endpoint); stays on the step. */
export const pinChoice = (kind: ChoiceKind, id: string): Command => ({
  id: `pin-${kind}-${id}`,
  label: label(`Pin ${id}`),
  enabled: always,
  perform: (store) =>
    changeScene(store, { choices: { ...store.getState().scene.choices, [kind]: id } }, 'clamp'),
});

export const unpinChoice = (kind: ChoiceKind): Command => ({
  id: `unpin-${kind}`,
  label: label('Unpin'),
  enabled: (store) => store.getState().scene.choices[kind] !== undefined,
  perform: (store) => {
    const choices = { ...store.getState().scene.choices };
    delete choices[kind];
    changeScene(store, { choices }, 'clamp');
  },
});

/** A new seed and no pinned choices: the random draws come out afresh. Stays on the step. */
export const reroll: Command = {
  id: 'reroll',
  label: label('Re-roll'),
  shortcut: 'R',
  keys: ['r', 'R'],
  enabled: always,
  perform: (store) =>
    changeScene(store, { seed: store.getState().scene.seed + 1, choices: {} }, 'clamp'),
};

/**
 * Opens walkthrough step `index`, bound to the cluster on screen ({@link selectStory}): its
 * scene over DEFAULT_SCENE (the kube-proxy mode the learner chose stays), then the trace step it
 * shows. A step that does not apply to this cluster cannot be opened (its reason is shown in
 * the walkthrough panel instead), and Next / Previous skip it.
 */
export const goToStory = (index: number): Command => ({
  id: `story-${index}`,
  label: (s) => selectStory(s).steps[index]?.title ?? `Story step ${index + 1}`,
  enabled: (store) => selectStory(store.getState()).steps[index]?.applies === true,
  perform: (store) => {
    const s = store.getState();
    const story = selectStory(s).steps[index];
    if (!story?.applies) return;
    // The story sets its own toggles; the kube-proxy mode the learner chose stays, so the
    // same story can be read in iptables, nftables or IPVS.
    s.setScene(storyStepScene(s, story), 'reset');
    s.setWalkthroughStep(index);
    // The step it shows is found in its trace, once that is computed.
    whenModel(store, () =>
      store.getState().setStepIndex(storyStepIndex(selectTrace(store.getState()), story)),
    );
  },
});

/** The index of the first step after `from` (or before it, `by` -1) that applies; -1 if none. */
function nextApplicable(s: Store, from: number, by: 1 | -1): number {
  const steps = selectStory(s).steps;
  for (let i = from + by; i >= 0 && i < steps.length; i += by) if (steps[i]?.applies) return i;
  return -1;
}

/** The next story step that applies to this cluster (the first one off the walkthrough). */
export const nextStory: Command = {
  id: 'next-story',
  label: label('Next story step'),
  enabled: (store) => {
    const s = store.getState();
    return nextApplicable(s, s.ui.walkthroughStep ?? -1, 1) >= 0;
  },
  perform: (store) => {
    const s = store.getState();
    const i = nextApplicable(s, s.ui.walkthroughStep ?? -1, 1);
    if (i >= 0) goToStory(i).perform(store);
  },
};

/** The previous story step that applies to this cluster. */
export const prevStory: Command = {
  id: 'prev-story',
  label: label('Previous story step'),
  enabled: (store) => {
    const i = store.getState().ui.walkthroughStep;
    return i !== null && nextApplicable(store.getState(), i, -1) >= 0;
  },
  perform: (store) => {
    const s = store.getState();
    if (s.ui.walkthroughStep === null) return;
    const i = nextApplicable(s, s.ui.walkthroughStep, -1);
    if (i >= 0) goToStory(i).perform(store);
  },
};

/**
 * "What next", after the walkthrough's last step: the story's last DNAT connection (step 5 on
 * the canonical scenario) again, with `externalTrafficPolicy: Local` (nodes failed from the card
 * stay failed), played from the start.
 * Off the walkthrough afterwards, like any change the learner makes.
 */
export const tryStoryLocal: Command = {
  id: 'story-try-local',
  label: label('Try externalTrafficPolicy: Local (replays this connection)'),
  enabled: (store) => selectStory(store.getState()).whatNext.dnatStep >= 0,
  perform: (store) => {
    const s = store.getState();
    const w = selectStory(s);
    const step = w.steps[w.whatNext.dnatStep];
    if (!step?.applies) return;
    // A node failed from the card stays failed.
    const failedNodes = s.scene.failedNodes;
    s.setScene(
      { ...storyStepScene(s, step), failedNodes, externalTrafficPolicy: 'Local' },
      'reset',
    );
    s.setWalkthroughStep(null);
    s.setPlaying(true);
  },
};

/**
 * "What next": fail (or restore) the node that DNATed on the story's last DNAT step, with
 * {@link toggleNodeFailure}; undefined when no step that DNATs applies.
 */
export function failStoryNode(s: Store): Command | undefined {
  const node = selectStory(s).whatNext.failNode;
  return node === undefined ? undefined : toggleNodeFailure(node);
}

/** The commands the global keyboard handler knows. */
export const KEYBOARD_COMMANDS: readonly Command[] = [
  playPause,
  next,
  prev,
  first,
  last,
  faster,
  slower,
  togglePolicy,
  toggleIpMode,
  reroll,
];

/** The command bound to `key`, if any. */
export function commandForKey(key: string): Command | undefined {
  return KEYBOARD_COMMANDS.find((c) => c.keys?.includes(key));
}

/** Runs a command when it is enabled; returns whether it ran. */
export function run(store: AppStore, command: Command): boolean {
  if (!command.enabled(store)) return false;
  command.perform(store);
  return true;
}
