/** Assembles trace steps: numbering and the list of changed header fields. */
import type { Packet, PacketField, TraceStep } from './types';

const FIELDS: PacketField[] = ['src', 'sport', 'dst', 'dport', 'mark'];

/** The header fields that differ between two packets. */
export function changedFields(a: Packet, b: Packet): PacketField[] {
  return FIELDS.filter((f) => a[f] !== b[f]);
}

/** A step before numbering. */
export type StepDraft = Omit<TraceStep, 'id' | 'index' | 'changed'>;

/** Collects steps in order. */
export class StepList {
  readonly steps: TraceStep[] = [];

  add(draft: StepDraft): TraceStep {
    const index = this.steps.length;
    const step: TraceStep = {
      ...draft,
      id: `s${index}`,
      index,
      changed: changedFields(draft.before, draft.after),
    };
    this.steps.push(step);
    return step;
  }

  get last(): TraceStep | undefined {
    return this.steps[this.steps.length - 1];
  }
}
