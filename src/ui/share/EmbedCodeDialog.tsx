/**
 * The "Embed code" dialog (a native modal `<dialog>`, as Export's: focus stays in it, Esc closes
 * it, focus goes back to the button). It offers the view on screen as an `<iframe>` snippet
 * (with the optional host script that sizes the frame) and as a `<lb-datapath>` web-component
 * snippet, built by embedCode.ts from the share hash; options (theme, controls, first step,
 * autoplay) change both. Each has a Copy button; where the clipboard cannot be written the text
 * is selected and the dialog says "Press Ctrl+C". Results are announced (aria-live).
 *
 * A view too large for a link (over MAX_OBJECTS objects) has no hash: the dialog says why and
 * offers the default scene's snippets instead.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { EmbedControls, EmbedTheme } from '../../embed/options';
import {
  selectScene,
  selectStepCount,
  selectStepIndex,
  useAppStore,
  useAppStoreApi,
} from '../../store';
import { defaultStore, isCanonical, selectShareHash, shareLink, snapshot } from '../../store/share';
import { useCompressorReady } from './useCompressorReady';
import { RadioGroup } from '../controls/RadioGroup';
import type { EmbedCodeInput } from './embedCode';
import {
  appBaseUrl,
  describeScene,
  elementSnippet,
  iframeSnippet,
  resizeScript,
} from './embedCode';
import './embedCode.css';

type Start = 'current' | 'zero';

/** Which snippet a Copy button copies (also its `data-copy` in the DOM). */
type Which = 'iframe' | 'script' | 'element';

/** The visible label of each snippet's field. */
const FIELD: Record<Which, string> = {
  iframe: 'iframe code',
  script: 'Host resize script (optional)',
  element: 'Element code',
};

const LABEL: Record<Which, string> = {
  iframe: 'iframe snippet',
  script: 'resize script',
  element: 'web component snippet',
};

/** One snippet: its heading, the text (read-only, selectable) and its Copy button. */
function Snippet({
  which,
  text,
  onCopy,
}: {
  which: Which;
  text: string;
  onCopy: (which: Which, field: HTMLTextAreaElement) => void;
}) {
  const id = useId();
  const ref = useRef<HTMLTextAreaElement | null>(null);
  return (
    <div className="embed-snippet">
      <div className="embed-snippet-head">
        <label htmlFor={id}>{FIELD[which]}</label>
        <button
          type="button"
          data-copy={which}
          aria-label={`Copy the ${LABEL[which]}`}
          onClick={() => ref.current && onCopy(which, ref.current)}
        >
          Copy
        </button>
      </div>
      <textarea
        id={id}
        ref={ref}
        readOnly
        spellCheck={false}
        rows={text.split('\n').length}
        value={text}
        data-snippet={which}
        onFocus={(e) => e.currentTarget.select()}
      />
    </div>
  );
}

/** The dialog's content, mounted only while it is open (so a closed dialog writes no links). */
function EmbedCodeContent() {
  const [status, setStatus] = useState('');
  const store = useAppStoreApi();
  const ready = useCompressorReady();
  const hash = useAppStore(selectShareHash);
  const scene = useAppStore(selectScene);
  const objects = useAppStore((s) => s.objects);
  const index = useAppStore(selectStepIndex);
  const count = useAppStore(selectStepCount);
  const [theme, setTheme] = useState<EmbedTheme>('auto');
  const [controls, setControls] = useState<EmbedControls>('full');
  const [start, setStart] = useState<Start>('current');
  const [autoplay, setAutoplay] = useState(false);

  const current = index + 1;
  // Without a hash the embed opens the default view (the walkthrough's first step, as
  // bootEmbed does), and the title says what that shows.
  const linkable = hash !== null;
  const description = useMemo(
    () =>
      linkable
        ? describeScene(scene, !isCanonical(objects))
        : describeScene(defaultStore().getState().scene, false),
    [linkable, scene, objects],
  );
  const input: EmbedCodeInput = {
    base: appBaseUrl(window.location),
    hash,
    step: start === 'current' && hash !== null ? current : 0,
    theme,
    controls,
    autoplay,
    description,
  };
  const tooLarge = hash === null && ready ? shareLink(snapshot(store.getState())) : null;

  const copy = async (which: Which, field: HTMLTextAreaElement) => {
    try {
      // navigator.clipboard is undefined outside secure contexts, whatever the types say.
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(field.value);
      setStatus(`Copied the ${LABEL[which]}.`);
    } catch {
      field.focus();
      field.select();
      setStatus(
        `The clipboard could not be written: the ${LABEL[which]} is selected. Press Ctrl+C (⌘C on a Mac) to copy it.`,
      );
    }
  };
  const stepText = index < 0 ? `before step 1 of ${count}` : `step ${current} of ${count}`;

  return (
    <>
      {tooLarge && !tooLarge.ok ? (
        <p className="embed-code-warning" role="note" data-testid="embed-code-too-large">
          This view cannot be embedded: {tooLarge.reason}, too large for a link, and an embed reads
          its scene from one. The snippets below show the default scene; to embed your own cluster,
          import a smaller one that shows the same thing.
        </p>
      ) : (
        <p className="embed-code-note" data-testid="embed-code-scene">
          The view on screen: {description}, {stepText}. The embed shows the stage, the player and
          the narration, paused unless autoplay is on.
        </p>
      )}
      <div className="embed-code-options">
        <RadioGroup
          variant="segmented"
          legend="Theme"
          name="embed-theme"
          value={theme}
          onChange={setTheme}
          options={[
            { value: 'auto', label: 'Auto', title: 'Follows the reader’s prefers-color-scheme' },
            { value: 'light', label: 'Light' },
            { value: 'dark', label: 'Dark' },
            { value: 'contrast', label: 'High contrast', title: 'White on black, for projectors' },
          ]}
        />
        <RadioGroup
          variant="segmented"
          legend="Controls"
          name="embed-controls"
          value={controls}
          onChange={setControls}
          options={[
            { value: 'full', label: 'Full', title: 'The whole player' },
            { value: 'minimal', label: 'Minimal', title: 'Previous, Play and Next' },
            { value: 'none', label: 'None', title: 'No player: drive it by postMessage' },
          ]}
        />
        <RadioGroup
          variant="segmented"
          legend="Start at"
          name="embed-start"
          value={hash === null ? 'zero' : start}
          onChange={setStart}
          disabled={hash === null}
          options={[
            { value: 'current', label: `This step (${current})` },
            { value: 'zero', label: 'Before step 1' },
          ]}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            name="embed-autoplay"
            checked={autoplay}
            onChange={(e) => setAutoplay(e.currentTarget.checked)}
          />
          Autoplay
        </label>
      </div>
      <section aria-labelledby="embed-iframe-title">
        <h3 id="embed-iframe-title">iframe</h3>
        <Snippet which="iframe" text={iframeSnippet(input)} onCopy={copy} />
        <p className="embed-code-note">
          Optional: this script sizes every <code>iframe.lb-datapath</code> on the page to the
          height its embed reports (<code>lb-datapath:resize</code>); without it the frame keeps its
          height and scrolls when the content is taller (a column under 780 px).
        </p>
        <Snippet which="script" text={resizeScript(input.base)} onCopy={copy} />
      </section>
      <section aria-labelledby="embed-element-title">
        <h3 id="embed-element-title">Web component</h3>
        <Snippet which="element" text={elementSnippet(input)} onCopy={copy} />
        <p className="embed-code-note">
          Load the script once per page; each <code>&lt;lb-datapath&gt;</code> is its own player,
          drawn when it scrolls into view.
        </p>
      </section>
      <p
        className="embed-code-status"
        role="status"
        aria-live="polite"
        data-testid="embed-code-status"
      >
        {status}
      </p>
    </>
  );
}

/** The dialog; `open` shows it as a modal, `onClose` is called when it closes. */
export default function EmbedCodeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="app-dialog embed-code-dialog"
      aria-labelledby="embed-code-title"
      data-testid="embed-code-dialog"
      onClose={onClose}
    >
      <div className="embed-code-head">
        <h2 id="embed-code-title">Embed this view</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {open && <EmbedCodeContent />}
    </dialog>
  );
}
