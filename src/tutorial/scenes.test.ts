/**
 * The real content: every scene link, `scene` block and front-matter scene in
 * content/chapters resolves against the model (content/AUTHORING.md, "Scene links").
 */
import { describe, expect, it } from 'vitest';
import { formatProblem } from './problem';
import { checkContent } from './check';
import { diskScenarioLoader, readContent } from './node';

const root = process.cwd();
const files = readContent(root);
const report = checkContent(files, { loadScenario: diskScenarioLoader(root) });

describe('scenes in content/chapters', () => {
  for (const file of Object.keys(files.chapters))
    it(`${file}: every scene resolves`, () => {
      const problems = report.problems.filter((p) => p.check === 'scene' && p.file === file);
      expect(problems.map(formatProblem)).toEqual([]);
      for (const s of report.scenes.filter((x) => x.file === file)) {
        // A resolved scene's step is a real step of its trace (or -1, before the first).
        const r = s.resolved;
        expect(r, `${file}:${s.line}`).toBeDefined();
        if (!r) continue;
        expect(r.state.step).toBeGreaterThanOrEqual(-1);
        expect(r.state.step).toBeLessThan(r.result.trace.steps.length);
      }
    });
});
