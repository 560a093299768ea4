/**
 * Checks the talks in content/talks and shows what the model makes of each beat:
 *
 *   npx tsx scripts/talk-check.ts [FILTER…]
 *
 * For every talk whose file name contains a FILTER (all when none is given): each beat, after
 * `steps:` expansion, with its caption and what the visualiser shows there — a scene beat's
 * step and outcome, a time beat's EXTERNAL-IP, rotation and nodes down at its clock — so an
 * author can check that the caption says what the model shows. Problems print as
 * `file:line: message`; exit status 1 when there is any.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeOutcome, describeStep } from '../src/tutorial/describe';
import { diskScenarioLoader } from '../src/tutorial/node';
import { resolveSceneQuery } from '../src/tutorial/sceneResolve';
import { expandTalk, parseTalk } from '../src/tutorial/talks';
import { describeTime, resolveTimeQuery } from '../src/tutorial/timeResolve';

const root = process.cwd();
const loadScenario = diskScenarioLoader(root);
const filters = process.argv.slice(2);
const dir = join(root, 'content', 'talks');
let failed = false;
for (const f of readdirSync(dir)
  .filter((x) => x.endsWith('.md'))
  .sort()) {
  if (filters.length > 0 && !filters.some((x) => f.includes(x))) continue;
  const file = `content/talks/${f}`;
  const fail = (line: number, message: string) => {
    failed = true;
    console.log(`${file}:${line}: ${message}`);
  };
  const parsed = parseTalk(f.slice(0, -3), readFileSync(join(dir, f), 'utf8'));
  if (!parsed.ok) {
    for (const p of parsed.problems) fail(p.line, p.message);
    continue;
  }
  const expanded = expandTalk(parsed.talk, (q) => {
    const r = resolveSceneQuery(q, { loadScenario });
    return r.ok
      ? r.scene.result.trace.steps.map((s) => s.narration)
      : r.errors.map((e) => e.message).join('; ');
  });
  if (!expanded.ok) {
    for (const p of expanded.problems) fail(p.line, p.message);
    continue;
  }
  console.log(`\n== ${file}: ${parsed.talk.title} (${expanded.talk.beats.length} beats)`);
  expanded.talk.beats.forEach((b, i) => {
    const part = b.part ? ` (${b.part.index}/${b.part.count})` : '';
    console.log(`${i + 1}. ${file}:${b.line}: ${b.title}${part}  [${b.show.kind}:${b.show.query}]`);
    console.log(`      caption: ${b.caption}`);
    if (b.show.kind === 'scene') {
      const r = resolveSceneQuery(b.show.query, { loadScenario });
      if (!r.ok) return fail(b.line, r.errors.map((e) => e.message).join('; '));
      console.log(`      ${describeStep(r.scene)}`);
      console.log(`      ${describeOutcome(r.scene)}`);
    } else {
      const r = resolveTimeQuery(b.show.query, { loadScenario });
      if (!r.ok) return fail(b.line, r.errors.map((e) => e.message).join('; '));
      console.log(`      ${describeTime(r.time)[1] ?? ''}`);
    }
  });
}
process.exit(failed ? 1 : 0);
