import type { Trace } from '../../model/trace/types';
import './panels.css';
import type { ClientModel } from '../../model/scenario/cluster';
import {
  selectCluster,
  selectScene,
  selectStep,
  selectStepIndex,
  selectTrace,
  useAppStore,
} from '../../store';

function clientWords(c: ClientModel | undefined): string {
  if (!c) return 'The client';
  if (c.location === 'Internet') return `A client on the internet (${c.address})`;
  if (c.location === 'Node')
    return `A process on ${c.nodeName ?? 'a node'}'s host network (${c.address})`;
  return `Pod ${c.pod ?? ''} on ${c.nodeName ?? 'a node'} (${c.address})`;
}

/** Before the first step: what is about to happen, without giving the outcome away. */
function intro(trace: Trace, client: ClientModel | undefined) {
  const p = trace.steps[0]?.before;
  if (!p)
    return {
      title: 'Nothing to send yet',
      body: `${trace.outcome.summary} ${'reason' in trace.outcome ? trace.outcome.reason : ''}`.trim(),
    };
  return {
    title: 'Before the first packet',
    body: `${clientWords(client)} is about to open a ${p.protocol.toUpperCase()} connection to ${p.dst}:${p.dport}. Press Play (Space) or Next step (→) to follow its first packet, a ${p.flags}, one step at a time.`,
  };
}

/**
 * The words for step `index` of `trace` (-1: before the first step): the step's own narration,
 * or the introduction. Shared with present mode's speaker notes.
 */
export function narrationText(
  trace: Trace,
  index: number,
  client: ClientModel | undefined,
): { title: string; body: string } {
  const step = trace.steps[index];
  return step ? step.narration : intro(trace, client);
}

/** The current step's title and sentences, announced politely to screen readers. */
export function Narration() {
  const trace = useAppStore(selectTrace);
  const step = useAppStore(selectStep);
  const index = useAppStore(selectStepIndex);
  const scene = useAppStore(selectScene);
  const cluster = useAppStore(selectCluster);
  const client = cluster?.clients.find((c) => c.name === scene.client);
  const count = trace.steps.length;
  const text = narrationText(trace, index, client);
  const atEnd = count > 0 && index === count - 1;
  return (
    <div className="narration" aria-live="polite" aria-atomic="true" data-testid="narration-text">
      <p className="narration-count">
        {step ? `Step ${index + 1} of ${count}` : `Before the first step · ${count} steps`}
        {step && (
          <span className={`direction ${step.direction}`}>
            {step.direction === 'reply' ? ' · reply ←' : ' · request →'}
          </span>
        )}
      </p>
      <h3 className="narration-title">{text.title}</h3>
      <p className="narration-body">{text.body}</p>
      {/* Said to screen readers with the last step's words; the outcome banner shows it. */}
      {atEnd && (
        <p className="narration-outcome visually-hidden">
          <strong>Outcome:</strong> {trace.outcome.summary}
        </p>
      )}
    </div>
  );
}
