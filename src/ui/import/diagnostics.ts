/**
 * The validator's problems as CodeMirror lint diagnostics. Problems carry 1-based lines and
 * columns; CodeMirror wants document offsets.
 */
import type { Text } from '@codemirror/state';
import type { Diagnostic } from '@codemirror/lint';
import type { Problem } from '../../model/import/validate';
import { MAX_SHOWN_PROBLEMS } from './limits';

/** The document range a problem points at: its value, to the end of that line's text. */
export function problemRange(
  doc: Text,
  line: number | undefined,
  column: number | undefined,
): { from: number; to: number } {
  if (line === undefined) return { from: 0, to: 0 };
  const l = doc.line(Math.min(Math.max(1, line), doc.lines));
  const from = Math.min(l.from + Math.max(0, (column ?? 1) - 1), l.to);
  const to = l.from + l.text.trimEnd().length;
  return { from, to: Math.max(from, to) };
}

/**
 * The problems as CodeMirror diagnostics (the message is the kubectl-style line): the first
 * {@link MAX_SHOWN_PROBLEMS}, as the problem list shows them.
 */
export function toDiagnostics(doc: Text, problems: readonly Problem[]): Diagnostic[] {
  return problems.slice(0, MAX_SHOWN_PROBLEMS).map((p) => ({
    ...problemRange(doc, p.line, p.column),
    severity: p.severity,
    message: p.message,
    ...(p.object ? { source: p.object } : {}),
  }));
}
