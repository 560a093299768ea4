import type { ChangeEvent } from 'react';
import { TIME_SPEEDS, useAppStore, useAppStoreApi } from '../../store';
import type { Store, TimeSpeed } from '../../store';
import { seek, stepEvent, togglePlay } from './commands';
import { useSimMs } from './context';
import { nextTime, prevTime } from '../../store/timelineDerive';
import { clockText, seconds } from './format';

interface Props {
  horizonMs: number;
  /** The times of the timeline's entries (where ← / → go). */
  times: readonly number[];
}

const selectPlaying = (s: Store) => s.time.playing;
const selectSpeed = (s: Store) => s.time.speed;

/**
 * The virtual clock's controls: restart, previous/next entry, play/pause, end, speed in
 * simulated seconds per real second, and a seek slider in whole seconds.
 */
export function TimeControls({ horizonMs, times }: Props) {
  const store = useAppStoreApi();
  const simMs = useSimMs();
  const playing = useAppStore(selectPlaying);
  const speed = useAppStore(selectSpeed);
  const maxS = Math.ceil(horizonMs / 1000);
  const hasPrev = prevTime(times, simMs) !== undefined;
  const hasNext = nextTime(times, simMs) !== undefined;
  const onSpeed = (e: ChangeEvent<HTMLSelectElement>) => {
    const v = Number(e.target.value);
    const speed = TIME_SPEEDS.find((s) => s === v);
    if (speed !== undefined) store.getState().setTimeSpeed(speed as TimeSpeed);
  };
  const aria = (enabled: boolean) => (enabled ? {} : { 'aria-disabled': true as const });
  return (
    <div className="playback time-controls" role="group" aria-label="Virtual time">
      <div className="playback-row">
        <button
          type="button"
          onClick={() => seek(store, 0, horizonMs)}
          {...aria(simMs > 0)}
          aria-keyshortcuts="Home"
          data-time-command="start"
        >
          ↺ Start
        </button>
        <button
          type="button"
          onClick={() => hasPrev && stepEvent(store, times, -1, horizonMs)}
          {...aria(hasPrev)}
          aria-label="Previous event"
          aria-keyshortcuts="ArrowLeft"
          title="Previous event (←)"
          data-time-command="prev"
        >
          ◀ Previous event
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => togglePlay(store, horizonMs)}
          aria-label={playing ? 'Pause the clock' : 'Play the clock'}
          aria-keyshortcuts="Space"
          title={`${playing ? 'Pause' : 'Play'} (Space)`}
          data-time-command="play"
          data-state={playing ? 'playing' : 'paused'}
        >
          {playing ? '❚❚ Pause' : '▶ Play'}
        </button>
        <button
          type="button"
          onClick={() => hasNext && stepEvent(store, times, 1, horizonMs)}
          {...aria(hasNext)}
          aria-label="Next event"
          aria-keyshortcuts="ArrowRight"
          title="Next event (→)"
          data-time-command="next"
        >
          Next event ▶
        </button>
        <button
          type="button"
          onClick={() => seek(store, horizonMs, horizonMs)}
          {...aria(simMs < horizonMs)}
          aria-keyshortcuts="End"
          data-time-command="end"
        >
          End ▶▶
        </button>
        <label className="speed">
          Speed{' '}
          <select value={speed} onChange={onSpeed} data-testid="time-speed">
            {TIME_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}× ({s} s per s)
              </option>
            ))}
          </select>
        </label>
        <output className="step-counter mono" data-testid="time-clock" aria-live="off">
          {clockText(Math.floor(simMs / 100) * 100)} of {seconds(horizonMs)}
        </output>
      </div>
      <input
        type="range"
        className="time-seek"
        min={0}
        max={maxS}
        step={1}
        value={Math.min(maxS, Math.floor(simMs / 1000))}
        onChange={(e) => seek(store, Number(e.target.value) * 1000, horizonMs)}
        aria-label="Simulated time"
        aria-valuetext={clockText(Math.floor(simMs / 1000) * 1000)}
        data-testid="time-seek"
      />
    </div>
  );
}
