import { Text } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { validateText } from '../../model/import/validate';
import { problemRange, toDiagnostics } from './diagnostics';

const doc = (text: string) => Text.of(text.split('\n'));

describe('problems as CodeMirror diagnostics', () => {
  it('1-based line and column → the value to the end of its line', () => {
    const d = doc('spec:\n  nodePort: 29999   \n');
    const r = problemRange(d, 2, 13);
    expect(d.sliceString(r.from, r.to)).toBe('29999');
  });

  it('no line: the start of the document; out-of-range positions are clamped', () => {
    const d = doc('a: 1\nb: 2');
    expect(problemRange(d, undefined, undefined)).toEqual({ from: 0, to: 0 });
    expect(problemRange(d, 99, 1)).toEqual({ from: 5, to: 9 });
    expect(problemRange(d, 0, 1)).toEqual({ from: 0, to: 4 });
    // A column past the end of the line (an unclosed bracket) points at the line's end.
    expect(problemRange(d, 1, 40)).toEqual({ from: 4, to: 4 });
  });

  it('the validator’s nodePort error underlines 29999 with the kubectl message', () => {
    const text = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: web',
      'spec:',
      '  type: NodePort',
      '  ports:',
      '    - port: 80',
      '      nodePort: 29999',
    ].join('\n');
    const d = doc(text);
    const diagnostics = toDiagnostics(d, validateText(text).problems);
    const error = diagnostics.find((x) => x.severity === 'error');
    expect(error?.message).toBe(
      'spec.ports[0].nodePort: Invalid value: 29999: provided port is not in the valid range. The range of valid ports is 30000-32767',
    );
    expect(error && d.sliceString(error.from, error.to)).toBe('29999');
    expect(error?.source).toBe('Service default/web');
  });

  it('a syntax error sits on its line', () => {
    const text = 'spec:\n  ports: [';
    const [diag] = toDiagnostics(doc(text), validateText(text).problems);
    expect(diag).toMatchObject({ severity: 'error', from: 16, to: 16 });
    expect(diag?.message).toMatch(/^line 2, column 11: /);
  });
});
