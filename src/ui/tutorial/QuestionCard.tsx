import { useId, useMemo, useState } from 'react';
import { answerQuestion, questionOptions } from '../../tutorial';
import type { Question, ResolvedScene } from '../../tutorial';
import { readQuestionBlock } from './blockYaml';
import { DISPLACED_NOTE, useReader } from './context';
import { revealStage } from './layout';
import { useScene } from './useScene';

function Card({ question, scene }: { question: Question; scene: ResolvedScene }) {
  const { mainStore, openInVisualiser, answers, saveAnswer, announce } = useReader();
  const options = useMemo(() => questionOptions(question, scene.result), [question, scene]);
  const right = useMemo(() => answerQuestion(question, scene.result), [question, scene]);
  const saved = answers[question.id];
  const [choice, setChoice] = useState<string | undefined>(saved);
  const [checked, setChecked] = useState<string | undefined>(saved);
  const name = useId();
  const promptId = useId();
  const verdict = checked === undefined ? 'unanswered' : checked === right ? 'right' : 'wrong';
  const rightLabel = options.find((o) => o.id === right)?.label ?? 'none of these';
  const check = () => {
    if (choice === undefined) return;
    setChecked(choice);
    saveAnswer(question.id, choice);
  };
  const answered = checked !== undefined;
  const showMe = (origin: HTMLElement) => {
    // After the learner has predicted, never before (content/AUTHORING.md, "Check yourself").
    if (!answered) return;
    const displaced = openInVisualiser({ ...scene.state, step: 0 });
    mainStore.getState().setPlaying(true);
    announce(
      `The visualiser plays the question’s scene from its first step.${displaced ? DISPLACED_NOTE : ''}`,
    );
    revealStage(origin);
  };
  const hintId = useId();
  return (
    <section
      className="question"
      aria-labelledby={promptId}
      data-testid="question"
      data-question-id={question.id}
      data-answer-state={verdict}
    >
      <p className="question-kicker">Check yourself</p>
      <fieldset>
        <legend id={promptId}>{question.prompt}</legend>
        {options.map((o) => (
          <label key={o.id} className="question-option">
            <input
              type="radio"
              name={name}
              value={o.id}
              checked={choice === o.id}
              onChange={() => setChoice(o.id)}
            />{' '}
            {o.label}
          </label>
        ))}
      </fieldset>
      <div className="question-actions">
        <button
          type="button"
          className="primary"
          onClick={check}
          aria-disabled={choice === undefined ? true : undefined}
        >
          Check
        </button>
        <button
          type="button"
          onClick={(e) => showMe(e.currentTarget)}
          aria-disabled={answered ? undefined : true}
          aria-describedby={answered ? undefined : hintId}
          data-testid="show-me"
        >
          <span aria-hidden="true">▶ </span>Show me
        </button>
        {!answered && (
          <span className="question-hint" id={hintId}>
            Answer first; then Show me plays it.
          </span>
        )}
      </div>
      <div className="question-feedback" aria-live="polite" data-testid="question-feedback">
        {verdict !== 'unanswered' && (
          <div className={`feedback ${verdict}`}>
            <p>
              <strong>{verdict === 'right' ? '✓ Right.' : '✗ Not quite.'}</strong>{' '}
              {verdict === 'right' ? 'The answer is' : 'The model’s answer is'}{' '}
              <strong>{rightLabel}</strong>.
            </p>
            {question.explain && <p>{question.explain}</p>}
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * "Check yourself" (a fenced `question` block): the prompt, options computed from the scene's
 * model result (`questionOptions`), a Check button, and feedback in words ("Right" / "Not
 * quite", the right option, the block's `explain`) announced politely. "Show me" plays the
 * scene in the visualiser from its first step, once the learner has answered (before that it is
 * disabled, with a hint). The answer is remembered in the browser.
 *
 * For tests: `data-question-id`, `data-answer-state` (`unanswered`, `right`, `wrong`); option
 * radios carry the option id as their value.
 */
export function QuestionCard({ raw }: { raw: string }) {
  const read = useMemo(() => readQuestionBlock(raw), [raw]);
  const state = useScene(read.ok ? read.question.scene : undefined);
  if (!read.ok)
    return (
      <p className="question broken" role="note">
        This question could not be read: {read.message}
      </p>
    );
  if (state.status === 'error')
    return (
      <p className="question broken" role="note">
        This question’s scene could not be built: {state.message}
      </p>
    );
  if (state.status === 'pending')
    return (
      <p className="question loading" data-testid="question" data-answer-state="loading">
        Loading a question…
      </p>
    );
  return <Card question={read.question} scene={state.scene} />;
}
