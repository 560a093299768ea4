import type { ChangeEvent } from 'react';
import { first, last, next, playPause, prev, setSpeed, run } from '../../store/commands';
import { SPEEDS, selectPlayback, selectStepCount, useAppStore, useAppStoreApi } from '../../store';
import type { Speed } from '../../store';
import { CommandButton } from './CommandButton';
import { Timeline } from './Timeline';
import './controls.css';

/** The step counter's words: "Before step 1 of 13", "Step 4 of 13", "No steps". */
export function counterText(index: number, count: number): string {
  if (count === 0) return 'No steps';
  return index < 0 ? `Before step 1 of ${count}` : `Step ${index + 1} of ${count}`;
}

/** Play/pause, step buttons, speed, the step counter and the timeline. */
export function PlaybackControls() {
  const store = useAppStoreApi();
  const { stepIndex, playing, speed } = useAppStore(selectPlayback);
  const count = useAppStore(selectStepCount);
  const onSpeed = (e: ChangeEvent<HTMLSelectElement>) => {
    const v = Number(e.target.value) as Speed;
    if (SPEEDS.includes(v)) run(store, setSpeed(v));
  };
  return (
    <div className="playback" role="group" aria-label="Playback">
      <div className="playback-row">
        <CommandButton command={first}>↺ Restart</CommandButton>
        <CommandButton command={prev}>◀ Previous</CommandButton>
        <CommandButton command={playPause} className="primary">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </CommandButton>
        <CommandButton command={next}>Next ▶</CommandButton>
        <CommandButton command={last}>Last ▶▶</CommandButton>
        <label className="speed">
          Speed{' '}
          <select value={speed} onChange={onSpeed}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <output className="step-counter" data-testid="step-counter" aria-live="off">
          {counterText(stepIndex, count)}
        </output>
      </div>
      <Timeline />
    </div>
  );
}
