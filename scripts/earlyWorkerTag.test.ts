import { describe, expect, it } from 'vitest';
import {
  EARLY_WORKER_GLOBAL,
  earlyWorkerScript,
  withEarlyWorker,
  workerFile,
} from './earlyWorkerTag';

describe('earlyWorkerTag', () => {
  it('finds the model worker among the built files (not the other workers)', () => {
    const bundle = {
      a: { fileName: 'assets/analyse.worker-OGAfARZP.js' },
      b: { fileName: 'assets/model.worker-Daj0CMPY.js' },
      c: { fileName: 'assets/index-BEPbPTXE.js' },
    };
    expect(workerFile(bundle)).toBe('assets/model.worker-Daj0CMPY.js');
    expect(workerFile({ c: { fileName: 'assets/index-BEPbPTXE.js' } })).toBeUndefined();
  });

  it('puts the script right after <meta charset>, before the stylesheet', () => {
    const html =
      '<html>\n  <head>\n    <meta charset="UTF-8" />\n    <link rel="stylesheet" href="/a.css">\n  </head>';
    const out = withEarlyWorker(html, '/assets/model.worker-x.js');
    const script = out.indexOf('<script>');
    expect(script).toBeGreaterThan(out.indexOf('<meta charset'));
    expect(script).toBeLessThan(out.indexOf('<link rel="stylesheet"'));
    expect(out).toContain(`window.${EARLY_WORKER_GLOBAL}=new Worker("/assets/model.worker-x.js"`);
  });

  it('starts a module worker and leaves it on window, and never throws', () => {
    const made: unknown[] = [];
    const window: Record<string, unknown> = {};
    class Worker {
      constructor(...args: unknown[]) {
        made.push(args);
      }
    }
    new Function('window', 'Worker', earlyWorkerScript('/w.js'))(window, Worker);
    expect(made).toEqual([['/w.js', { type: 'module' }]]);
    expect(window[EARLY_WORKER_GLOBAL]).toBeInstanceOf(Worker);
    const failing = () => {
      throw new Error('blocked');
    };
    expect(() =>
      new Function('window', 'Worker', earlyWorkerScript('/w.js'))({}, failing),
    ).not.toThrow();
  });
});
