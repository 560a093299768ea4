import { selectStepIndex, selectTrace, useAppStore, useAppStoreApi } from '../../store';

/** A scrubber over the trace, with a tick per step labelled by the step's title. */
export function Timeline() {
  const store = useAppStoreApi();
  const trace = useAppStore(selectTrace);
  const index = useAppStore(selectStepIndex);
  const count = trace.steps.length;
  const go = (i: number) => {
    const s = store.getState();
    s.setPlaying(false);
    s.setStepIndex(i);
  };
  const current = trace.steps[index];
  const valueText = current
    ? `Step ${index + 1} of ${count}: ${current.narration.title}`
    : `Before the first step (of ${count})`;
  return (
    <div className="timeline">
      <input
        type="range"
        min={-1}
        max={Math.max(count - 1, -1)}
        step={1}
        value={index}
        onChange={(e) => go(Number(e.target.value))}
        aria-label="Timeline: choose a step"
        aria-valuetext={valueText}
        disabled={count === 0}
        data-testid="timeline"
      />
      <ol className="ticks" aria-label="Steps">
        <li>
          <button
            type="button"
            tabIndex={-1}
            className={index === -1 ? 'tick current' : 'tick'}
            onClick={() => go(-1)}
            // The visible "0" is part of the name (WCAG 2.5.3, label in name).
            aria-label="0: before the first step"
            title="Before the first step"
          >
            0
          </button>
        </li>
        {trace.steps.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              tabIndex={-1}
              className={`tick ${s.direction}${s.index === index ? ' current' : ''}${s.index < index ? ' past' : ''}`}
              onClick={() => go(s.index)}
              aria-label={`Go to step ${s.index + 1}: ${s.narration.title}`}
              aria-current={s.index === index ? 'step' : undefined}
              title={`${s.index + 1}. ${s.narration.title}`}
            >
              {s.index + 1}
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
