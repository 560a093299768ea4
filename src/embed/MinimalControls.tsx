/** The embed's `controls=minimal` player: Previous, Play/Pause, Next and where it is. */
import { first, next, playPause, prev } from '../store/commands';
import { selectPlayback, selectStepCount, useAppStore } from '../store';
import { CommandButton } from '../ui/controls/CommandButton';
import { counterText } from '../ui/controls/PlaybackControls';

export function MinimalControls() {
  const { stepIndex, playing } = useAppStore(selectPlayback);
  const count = useAppStore(selectStepCount);
  return (
    <div className="playback embed-minimal" role="group" aria-label="Playback">
      <div className="playback-row">
        <CommandButton command={first}>↺</CommandButton>
        <CommandButton command={prev}>◀</CommandButton>
        <CommandButton command={playPause} className="primary">
          {playing ? '❚❚ Pause' : '▶ Play'}
        </CommandButton>
        <CommandButton command={next}>▶</CommandButton>
        <output className="step-counter" data-testid="step-counter" aria-live="off">
          {counterText(stepIndex, count)}
        </output>
      </div>
    </div>
  );
}
