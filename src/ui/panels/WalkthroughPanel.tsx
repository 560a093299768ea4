import { DEFAULT_WALKTHROUGH } from '../../model';
import { goToStory, nextStory, prevStory, run } from '../../store/commands';
import { selectScene, selectWalkthroughStep, useAppStore, useAppStoreApi } from '../../store';
import { openedByTutorial } from '../tutorial/stash';
import { CommandButton } from '../controls/CommandButton';

/** The walkthrough: its story steps; opening one sets its scene and jumps to its trace step. */
export function WalkthroughPanel() {
  const store = useAppStoreApi();
  const active = useAppStore(selectWalkthroughStep);
  const steps = DEFAULT_WALKTHROUGH.steps;
  const story = active === null ? undefined : steps[active];
  const fromTutorial = openedByTutorial(useAppStore(selectScene));
  return (
    <div className="walkthrough" data-walkthrough-step={active ?? ''}>
      <p className="walkthrough-title">{DEFAULT_WALKTHROUGH.title}</p>
      <ol className="story-steps">
        {steps.map((s, i) => (
          <li key={s.id}>
            <button
              type="button"
              className={i === active ? 'story current' : 'story'}
              aria-current={i === active ? 'step' : undefined}
              onClick={() => run(store, goToStory(i))}
              data-story={s.id}
            >
              {/^\d/.test(s.title) ? s.title : `${i + 1}. ${s.title}`}
            </button>
          </li>
        ))}
      </ol>
      <div className="story-body" aria-live="polite">
        {story ? (
          <p>{story.body}</p>
        ) : (
          <p className="muted">
            {fromTutorial
              ? 'Opened from the tutorial: this scene is not one of the walkthrough’s steps. Pick a story step to follow the walkthrough.'
              : 'You changed the scene yourself. Pick a story step to go back to the walkthrough.'}
          </p>
        )}
      </div>
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
