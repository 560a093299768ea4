import { useMemo } from 'react';
import {
  goToStory,
  nextStory,
  prevStory,
  run,
  toggleNodeFailure,
  tryStoryLocal,
} from '../../store/commands';
import {
  selectScene,
  selectStory,
  selectStoryEnded,
  selectWalkthroughStep,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { openedByTutorial } from '../tutorial/stash';
import { LEARN_PREFIX } from '../tutorial/route';
import { CommandButton } from '../controls/CommandButton';
import './walkthrough.css';

/**
 * "What next", after the last story step that applies: three actions, each a real command or
 * link — replay the story's last DNAT connection under `externalTrafficPolicy: Local`, fail
 * the node that DNATed (`toggleNodeFailure`), read the tutorial chapter that carries on.
 */
function WhatNextCard() {
  const w = useAppStore(selectStory);
  const { chapter, chapterTitle, failNode } = w.whatNext;
  // The same command as failStoryNode (store/commands.ts), made once per node.
  const fail = useMemo(
    () => (failNode === undefined ? undefined : toggleNodeFailure(failNode)),
    [failNode],
  );
  return (
    <section className="story-next" aria-labelledby="story-next-title" data-testid="story-next">
      <h3 id="story-next-title" className="story-next-title">
        What next
      </h3>
      <ul className="story-next-actions">
        <li>
          <CommandButton command={tryStoryLocal}>Try externalTrafficPolicy: Local</CommandButton>
          <span className="note">
            Replays this connection: a node may then hand it only to its own Pods, and the Pod sees
            the client’s own address.
          </span>
        </li>
        {fail && (
          <li>
            <CommandButton command={fail} />
            <span className="note">
              The node that DNATed: watch the balancer and kube-proxy route around it.
            </span>
          </li>
        )}
        <li>
          <a className="story-next-link" href={`${LEARN_PREFIX}/${encodeURIComponent(chapter)}`}>
            Read on: {chapterTitle}
          </a>
          <span className="note">The tutorial chapter that continues this story.</span>
        </li>
      </ul>
    </section>
  );
}

/**
 * The walkthrough: its story steps, bound to the cluster on screen (`selectStory`: the
 * cluster's own node names and addresses); opening one sets its scene and jumps to its trace
 * step. A step the cluster cannot tell stays in the list, dimmed, with the reason under it;
 * it cannot be opened and Next / Previous skip it. After the last step that applies, a
 * "What next" card.
 */
export function WalkthroughPanel() {
  const store = useAppStoreApi();
  const active = useAppStore(selectWalkthroughStep);
  const w = useAppStore(selectStory);
  const ended = useAppStore(selectStoryEnded);
  const steps = w.steps;
  const story = active === null ? undefined : steps[active];
  const fromTutorial = openedByTutorial(useAppStore(selectScene));
  const skipped = steps.filter((s) => !s.applies).length;
  return (
    <div
      className="walkthrough"
      data-walkthrough-step={active ?? ''}
      data-story-ended={ended ? 'true' : 'false'}
    >
      <p className="walkthrough-title">{w.title}</p>
      {skipped > 0 && (
        <p className="note story-skipped">
          {skipped === 1 ? 'One step does' : `${skipped} steps do`} not apply to this cluster; Next
          skips {skipped === 1 ? 'it' : 'them'}.
        </p>
      )}
      <ol className="story-steps">
        {steps.map((s, i) => (
          <li key={s.id} data-applies={s.applies ? 'true' : 'false'}>
            <button
              type="button"
              className={
                (i === active ? 'story current' : 'story') + (s.applies ? '' : ' not-applicable')
              }
              aria-current={i === active ? 'step' : undefined}
              aria-disabled={s.applies ? undefined : true}
              aria-describedby={s.applies ? undefined : `story-why-${s.id}`}
              onClick={() => {
                if (s.applies) run(store, goToStory(i));
              }}
              data-story={s.id}
            >
              {/^\d/.test(s.title) ? s.title : `${i + 1}. ${s.title}`}
            </button>
            {!s.applies && (
              <p className="story-why" id={`story-why-${s.id}`} data-testid="story-why">
                Not in this cluster: {s.reason}
              </p>
            )}
          </li>
        ))}
      </ol>
      <div className="story-body" aria-live="polite">
        {story?.applies ? (
          <p>{story.body}</p>
        ) : story ? (
          <p className="story-why">
            This step does not apply to the cluster on screen: {story.reason}
          </p>
        ) : ended ? (
          <p className="muted">
            The story’s last connection, changed from “What next”. Pick a story step to go back.
          </p>
        ) : (
          <p className="muted">
            {fromTutorial
              ? 'Opened from the tutorial: this scene is not one of the walkthrough’s steps. Pick a story step to follow the walkthrough.'
              : 'You changed the scene yourself. Pick a story step to go back to the walkthrough.'}
          </p>
        )}
      </div>
      {ended && <WhatNextCard />}
      <p className="note story-help" data-testid="story-help">
        <strong>▶ Play</strong> under the drawing runs this step’s connection;{' '}
        <strong>Next ▶</strong> here moves the story on.
      </p>
      <div className="story-nav">
        <CommandButton command={prevStory}>◀ Previous</CommandButton>
        <span className="muted">{active === null ? '—' : `${active + 1} / ${steps.length}`}</span>
        <CommandButton command={nextStory}>Next ▶</CommandButton>
      </div>
    </div>
  );
}
