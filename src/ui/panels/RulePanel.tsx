import { selectStep, useAppStore } from '../../store';
import { DecisionTable } from './DecisionTable';
import { RuleDetails } from './RuleDetails';

/** What decided the current step: a choice among candidates, and/or the rule that matched. */
export function RulePanel() {
  const step = useAppStore(selectStep);
  if (!step) return <p className="empty">Step through the trace to see each rule and decision.</p>;
  if (!step.decision && !step.rule)
    return <p className="empty">No rule or decision at this step.</p>;
  return (
    <>
      {step.decision && <DecisionTable decision={step.decision} />}
      {step.rule && <RuleDetails rule={step.rule} />}
    </>
  );
}
