/**
 * Checks the tutorial in content/ and shows what the model makes of it:
 *
 *   npx tsx scripts/tutorial-check.ts [--quiet] [FILTER…]
 *
 * Prints every problem as `file:line: message` (all files, always), then — for the chapters
 * whose path contains one of the FILTERs (all chapters when none is given) — each scene link,
 * scene block and front-matter scene with its resolved toggles, step and outcome, each time link
 * with its inputs and what the time view shows where its clock stands, and each question with
 * its scene, options and computed answer. `--quiet` prints the problems only.
 * Then warnings: what is probably wrong but not for certain (a scene link whose text says "step N"
 * while it shows another step). Exit status 1 when there is any problem, else 0 (warnings too).
 */
import { formatProblem } from '../src/tutorial/problem';
import { checkContent } from '../src/tutorial/check';
import { describeOutcome, describeStep, describeToggles } from '../src/tutorial/describe';
import { diskScenarioLoader, readContent } from '../src/tutorial/node';
import { describeTime } from '../src/tutorial/timeResolve';

const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const filters = args.filter((a) => a !== '--quiet');
const root = process.cwd();
const report = checkContent(readContent(root), { loadScenario: diskScenarioLoader(root) });
const shown = (file: string) => filters.length === 0 || filters.some((f) => file.includes(f));

if (!quiet) {
  for (const c of report.book.chapters) {
    if (!shown(c.file)) continue;
    const scenes = report.scenes.filter((s) => s.file === c.file);
    const questions = report.questions.filter((q) => q.file === c.file);
    console.log(`\n== ${c.file}  #/learn/${c.slug}  (order ${c.order}${c.core ? ', core' : ''})`);
    for (const s of scenes) {
      console.log(`  ${c.file}:${s.line}: scene ${s.kind} ${s.query}`);
      if (!s.resolved) console.log('      (does not resolve, see the problems)');
      else {
        console.log(`      ${describeToggles(s.resolved)}`);
        console.log(`      ${describeStep(s.resolved)}`);
        console.log(`      ${describeOutcome(s.resolved)}`);
      }
    }
    for (const t of report.times.filter((x) => x.file === c.file)) {
      console.log(`  ${c.file}:${t.line}: time link "${t.text}" ${t.query}`);
      if (!t.resolved) console.log('      (does not resolve, see the problems)');
      else for (const line of describeTime(t.resolved)) console.log(`      ${line}`);
    }
    for (const q of questions) {
      console.log(`  ${c.file}:${q.line}: question ${q.question.id} (ask ${q.question.ask})`);
      console.log(`      scene: ${q.question.scene}`);
      if (q.resolved) console.log(`      ${describeToggles(q.resolved)}`);
      for (const o of q.options)
        console.log(`      ${o.id === q.answer ? '[x]' : '[ ]'} ${o.label}   (${o.id})`);
      console.log(`      answer: ${q.answer ?? '(none)'}`);
      const distinct = new Set(q.bySeed.values());
      console.log(
        `      seeds: ${q.bySeed.size === 1 ? 'fixed by the link' : distinct.size === 1 ? `same answer for seeds 1–${q.bySeed.size}` : 'DEPENDS ON THE SEED'}`,
      );
    }
  }
  console.log(
    `\n${report.book.chapters.length} chapters, ${report.scenes.length} scenes, ${report.times.length} time links, ${report.questions.length} questions, ${report.glossary.length} glossary terms, ${report.topics.length} topics`,
  );
}

if (report.warnings.length > 0) {
  console.log(`\n${report.warnings.length} warning(s) (not failures; check the text):`);
  for (const w of report.warnings) console.log(`warning: ${formatProblem(w)}`);
}

if (report.problems.length > 0) {
  console.log(`\n${report.problems.length} problem(s):`);
  for (const p of report.problems) console.log(formatProblem(p));
  process.exit(1);
}
console.log('\nno problems');
