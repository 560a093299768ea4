/**
 * User commands as records (Excalidraw's actions): one definition shared by the buttons, the
 * keyboard handler and the tests. `perform` changes the store; `enabled` says whether it can.
 * Parametrised commands (fail a node, pin a choice) are made by small factories.
 */
import type { Choices, DialTarget, SceneOptions } from '../model/scenario/scene';
import { DEFAULT_SCENE, DEFAULT_WALKTHROUGH, storyStepIndex } from '../model';
import { selectCluster, selectStepCount, selectTrace } from './selectors';
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

/** Opens walkthrough step `index`: its scene over DEFAULT_SCENE, then the trace step it shows. */
export const goToStory = (index: number): Command => ({
  id: `story-${index}`,
  label: label(DEFAULT_WALKTHROUGH.steps[index]?.title ?? `Story step ${index + 1}`),
  enabled: () => index >= 0 && index < DEFAULT_WALKTHROUGH.steps.length,
  perform: (store) => {
    const story = DEFAULT_WALKTHROUGH.steps[index];
    if (!story) return;
    const s = store.getState();
    // The story sets its own toggles; the kube-proxy mode the learner chose stays, so the
    // same story can be read in iptables, nftables or IPVS.
    const proxyMode = s.scene.proxyMode;
    s.setScene({ ...DEFAULT_SCENE, ...(proxyMode ? { proxyMode } : {}), ...story.scene }, 'reset');
    s.setStepIndex(storyStepIndex(selectTrace(store.getState()), story));
    s.setWalkthroughStep(index);
  },
});

export const nextStory: Command = {
  id: 'next-story',
  label: label('Next story step'),
  enabled: (store) =>
    (store.getState().ui.walkthroughStep ?? -1) < DEFAULT_WALKTHROUGH.steps.length - 1,
  perform: (store) => goToStory((store.getState().ui.walkthroughStep ?? -1) + 1).perform(store),
};

export const prevStory: Command = {
  id: 'prev-story',
  label: label('Previous story step'),
  enabled: (store) => (store.getState().ui.walkthroughStep ?? 0) > 0,
  perform: (store) => goToStory((store.getState().ui.walkthroughStep ?? 0) - 1).perform(store),
};

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
