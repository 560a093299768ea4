/**
 * The Export dialog (a native modal `<dialog>`: focus stays in it, Esc closes it, focus goes
 * back to "Export…"): the current frame as SVG or PNG; the whole trace, or the walkthrough (one
 * frame per story step), as an animated GIF, a WebM or MP4 video or a printable handout.
 * Progress and the result are announced in a live region ("GIF: frame 5 of 13…", then what was
 * saved); the file is downloaded, and a link saves it again. Video needs WebCodecs'
 * VideoEncoder with the container's codec (VP9/VP8/AV1 for WebM, H.264 for MP4): where the
 * browser lacks it, the dialog says so and the button is off.
 */
import { useEffect, useRef, useState } from 'react';
import {
  selectStepCount,
  selectStepIndex,
  selectStory,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import type { ExportKind, FrameSource } from './naming';
import { formatBytes } from './naming';
import './export.css';

type Support = 'checking' | 'yes' | 'no';

/**
 * Codec strings asked of VideoEncoder (at 1280×720) to tell whether a container can be made
 * here, before loading the encoder: WebM's VP9, VP8, AV1; MP4's H.264 High, Main or Baseline
 * profile at level 4 (mediabunny picks the exact level for the frame size when it encodes).
 */
const PROBES = {
  webm: ['vp09.00.10.08', 'vp8', 'av01.0.04M.08'],
  mp4: ['avc1.640028', 'avc1.4d0028', 'avc1.420028'],
};

/** Whether this browser can encode one of `codecs` through VideoEncoder. */
async function encodes(codecs: readonly string[]): Promise<boolean> {
  if (typeof VideoEncoder === 'undefined') return false;
  for (const codec of codecs) {
    try {
      const r = await VideoEncoder.isConfigSupported({ codec, width: 1280, height: 720 });
      if (r.supported) return true;
    } catch {
      // An unknown codec string throws in some browsers: try the next.
    }
  }
  return false;
}

interface Saved {
  url: string;
  name: string;
  size: number;
}

type State =
  { kind: 'idle' } | { kind: 'working'; what: ExportKind } | { kind: 'done' } | { kind: 'error' };

/** Starts a download of `blob` as `name`; returns its object URL (for "save again"). */
function save(blob: Blob, name: string): string {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  return url;
}

/** Writes the handout into the window opened for it and offers to print it. */
function showHandout(w: Window, html: string) {
  w.document.open();
  w.document.write(html);
  w.document.close();
  w.document.getElementById('print')?.addEventListener('click', () => w.print());
  w.focus();
  w.print();
}

const LABEL: Record<ExportKind, string> = {
  svg: 'SVG',
  png: 'PNG',
  gif: 'GIF',
  webm: 'WebM',
  mp4: 'MP4',
  handout: 'Handout',
};

/** The dialog; `open` shows it as a modal, `onClose` is called when it closes. */
export default function ExportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const store = useAppStoreApi();
  const count = useAppStore(selectStepCount);
  const index = useAppStore(selectStepIndex);
  const story = useAppStore(selectStory);
  const dialog = useRef<HTMLDialogElement>(null);
  const [support, setSupport] = useState<{ webm: Support; mp4: Support }>({
    webm: 'checking',
    mp4: 'checking',
  });
  const [source, setSource] = useState<FrameSource>('trace');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const [status, setStatus] = useState('');
  const [saved, setSaved] = useState<Saved | null>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);

  useEffect(() => {
    let live = true;
    void Promise.all([encodes(PROBES.webm), encodes(PROBES.mp4)]).then(
      ([webm, mp4]) => live && setSupport({ webm: webm ? 'yes' : 'no', mp4: mp4 ? 'yes' : 'no' }),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(
    () => () => {
      if (saved) URL.revokeObjectURL(saved.url);
    },
    [saved],
  );

  const busy = state.kind === 'working';
  const run = async (kind: ExportKind) => {
    if (busy || !dialog.current) return;
    // The handout's window opens now, while the click still counts as the person's (a window
    // opened after the frames are drawn would be blocked as a pop-up).
    const w = kind === 'handout' ? window.open('', '_blank') : null;
    if (w) w.document.title = 'Preparing the handout…';
    setState({ kind: 'working', what: kind });
    setStatus(`${LABEL[kind]}: starting…`);
    try {
      const { runExport } = await import('./runExport');
      const r = await runExport(kind, store, dialog.current, setStatus, source);
      if (kind === 'handout' && w && !w.closed) {
        showHandout(w, await r.blob.text());
        setStatus(`${r.message} Opened in a new window to print.`);
      } else {
        const url = save(r.blob, r.fileName);
        setSaved({ url, name: r.fileName, size: r.blob.size });
        setStatus(
          kind === 'handout'
            ? `${r.message} The browser blocked its window: saved ${r.fileName}; open it and print.`
            : `${r.message} Saved ${r.fileName}.`,
        );
      }
      setState({ kind: 'done' });
    } catch (e) {
      w?.close();
      setStatus(`${LABEL[kind]} failed: ${e instanceof Error ? e.message : String(e)}`);
      setState({ kind: 'error' });
    }
  };

  const frame = index < 0 ? 'before the first step' : `step ${index + 1} of ${count}`;
  const stories = story.steps.filter((s) => s.applies).length;
  const none = source === 'story' ? stories === 0 : count === 0;
  const storyCount =
    stories === story.steps.length
      ? `${stories} story steps`
      : `${stories} of its ${story.steps.length} story steps apply to this cluster`;
  const action = (
    kind: ExportKind,
    text: string,
    extra?: { disabled?: boolean; describedBy?: string | undefined },
  ) => (
    <button
      type="button"
      data-export={kind}
      aria-disabled={busy || extra?.disabled ? true : undefined}
      aria-describedby={extra?.describedBy}
      onClick={() => {
        if (!extra?.disabled) void run(kind);
      }}
    >
      {text}
    </button>
  );
  return (
    <dialog
      ref={dialog}
      className="app-dialog export-dialog"
      aria-labelledby="export-title"
      data-testid="export-dialog"
      data-export-state={state.kind}
      data-webm-support={support.webm}
      data-mp4-support={support.mp4}
      data-export-source={source}
      onClose={onClose}
    >
      <div className="export-head">
        <h2 id="export-title">Export</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <p className="export-note">
        Frames are drawn from the model’s steps, in the theme on screen, each with its step’s
        narration (or the walkthrough’s words for its story step) above the drawing.
      </p>
      <section aria-labelledby="export-frame">
        <h3 id="export-frame">This frame ({frame})</h3>
        <div className="export-actions">
          {action('svg', 'SVG')}
          {action('png', 'PNG (2× pixels)')}
        </div>
      </section>
      <section aria-labelledby="export-anim">
        <h3 id="export-anim">Animation and handout</h3>
        <fieldset className="export-source">
          <legend>Frames from</legend>
          <label>
            <input
              type="radio"
              name="export-source"
              value="trace"
              checked={source === 'trace'}
              onChange={() => setSource('trace')}
            />
            This trace ({count} step{count === 1 ? '' : 's'}, one frame each)
          </label>
          <label>
            <input
              type="radio"
              name="export-source"
              value="story"
              checked={source === 'story'}
              disabled={stories === 0}
              onChange={() => setSource('story')}
            />
            The walkthrough ({storyCount}, one frame each)
          </label>
        </fieldset>
        <div className="export-actions">
          {action('gif', 'Animated GIF', { disabled: none })}
          {action('webm', 'Video (WebM)', {
            disabled: none || support.webm !== 'yes',
            describedBy: support.webm === 'no' ? 'export-webm-missing' : undefined,
          })}
          {action('mp4', 'Video (MP4)', {
            disabled: none || support.mp4 !== 'yes',
            describedBy: support.mp4 === 'no' ? 'export-mp4-missing' : undefined,
          })}
          {action('handout', 'Print handout…', { disabled: none })}
        </div>
        {support.webm === 'no' && (
          <p id="export-webm-missing" className="export-missing" data-testid="export-webm-missing">
            This browser cannot encode video (no WebCodecs VideoEncoder for VP9, VP8 or AV1), so
            WebM is not available here. The animated GIF has the same frames.
          </p>
        )}
        {support.mp4 === 'no' && (
          <p id="export-mp4-missing" className="export-missing" data-testid="export-mp4-missing">
            {support.webm === 'yes'
              ? 'This browser cannot encode MP4 (H.264) video; WebM works.'
              : 'This browser cannot encode MP4 (H.264) video either; the animated GIF has the same frames.'}
          </p>
        )}
      </section>
      <p className="export-status" role="status" aria-live="polite" data-testid="export-status">
        {status}
      </p>
      {saved && (
        <p className="export-saved">
          <a href={saved.url} download={saved.name} data-testid="export-saved">
            Save {saved.name} again ({formatBytes(saved.size)})
          </a>
        </p>
      )}
    </dialog>
  );
}
