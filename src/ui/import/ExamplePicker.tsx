import { useEffect, useState } from 'react';
import type { Example } from './examples';
import { fetchExample, fetchExamples } from './examples';

interface Props {
  /** The file of the example on screen, or ''. */
  value: string;
  /** Id of the element that describes the chosen example. */
  describedBy: string;
  onPick: (example: Example, text: string) => Promise<void>;
  onError: (message: string) => void;
}

/** A select of the shipped examples; choosing one loads it. */
export function ExamplePicker({ value, describedBy, onPick, onError }: Props) {
  const [examples, setExamples] = useState<Example[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const ctl = new AbortController();
    fetchExamples(ctl.signal).then(setExamples, (e: unknown) => {
      if (ctl.signal.aborted) return;
      setFailed(true);
      setExamples([]);
      onError(`Examples unavailable: ${e instanceof Error ? e.message : String(e)}.`);
    });
    return () => ctl.abort();
  }, [onError]);

  return (
    <label className="example-pick">
      Example{' '}
      <select
        value={value}
        data-testid="example-select"
        disabled={examples === null || failed}
        aria-busy={busy}
        aria-describedby={value ? describedBy : undefined}
        onChange={async (e) => {
          const ex = examples?.find((x) => x.file === e.target.value);
          if (!ex) return;
          setBusy(true);
          try {
            await onPick(ex, await fetchExample(ex.file));
          } catch (err) {
            onError(`${ex.title}: ${err instanceof Error ? err.message : String(err)}.`);
          } finally {
            setBusy(false);
          }
        }}
      >
        <option value="">{examples === null ? 'Loading…' : 'Choose an example…'}</option>
        {examples?.map((ex) => (
          <option key={ex.file} value={ex.file} title={ex.description}>
            {ex.title}
          </option>
        ))}
      </select>
    </label>
  );
}
