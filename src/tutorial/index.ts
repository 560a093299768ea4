/**
 * The tutorial's pure core: plain TypeScript (no React, no DOM), run by the Node tests, by
 * `scripts/tutorial-check.ts` and by the browser alike. It reads the content in `content/`
 * exactly as content/AUTHORING.md defines it:
 *
 * - chapters (front matter + GitHub-flavoured Markdown) → {@link loadBook};
 * - scene links `scene:<query>` → {@link parseSceneQuery} then {@link resolveSceneLink}, which
 *   gives the store's `SharedState` for `openView`;
 * - time links `time:<query>` → {@link parseTimeQuery} then {@link resolveTimeLink}, which gives
 *   what the "Time & failures" view opens (scenario, inputs, clock);
 * - fenced `scene`, `question` and `mermaid` blocks → {@link extractBlocks};
 * - questions → {@link parseQuestion}, {@link questionOptions}, {@link answerQuestion} (the
 *   answer always comes from the model's trace, never from the text);
 * - the glossary → {@link parseGlossary}, {@link glossaryMatcher}; the topics →
 *   {@link parseTopics}, {@link checkTopics}; everything at once → {@link checkContent}.
 *
 * Node-only helpers that read files (`readContent`, `diskScenarioLoader`) live in
 * `./node.ts` and are deliberately not exported here.
 */
export type { Problem } from './problem';
export { formatProblem, sortProblems } from './problem';
export type { Book, Chapter, ChapterResult, Heading } from './chapters';
export { headingsOf, loadBook, parseChapter, slugOfFile } from './chapters';
export type { ParsedSceneLink, SceneLink, SceneLinkError } from './sceneLink';
export { formatSceneLink, parseSceneQuery, SCENE_KEYS } from './sceneLink';
export type { ResolvedScene, ResolveOptions, ResolveResult } from './sceneResolve';
export { resolveSceneLink, resolveSceneQuery, serviceEndpoints } from './sceneResolve';
export type { ParsedTimeLink, TimeLink, TimeLinkError } from './timeLink';
export {
  formatTimeEvent,
  formatTimeEvents,
  formatTimeLink,
  parseTimeQuery,
  TIME_KEYS,
  TIME_PREFIX,
} from './timeLink';
export type { ResolvedTime, ResolveTimeResult, TimeInputs, TimeOpen } from './timeResolve';
export { describeTime, resolveTimeLink, resolveTimeQuery } from './timeResolve';
export type { ScenarioLoader } from './scenario';
export { CANONICAL_SCENARIO, scenarioFromText, scenarioNames, sceneForScenario } from './scenario';
export type { ChapterBlocks, MermaidBlock, SceneLinkRef, TimeLinkRef, YamlBlock } from './blocks';
export { extractBlocks, missingAccessibility } from './blocks';
export type { Ask, Question, QuestionOption } from './questions';
export {
  answerQuestion,
  answersBySeed,
  ASKS,
  isDeterministic,
  parseQuestion,
  questionOptions,
  SEEDS,
  SOURCE_IP_GROUPS,
  unknownOptionNames,
} from './questions';
export type { GlossaryEntry, GlossaryMatcher, TermMatch } from './glossary';
export { findGlossaryEntry, glossaryMatcher, isCaseSensitive, parseGlossary } from './glossary';
export type { Topic } from './topics';
export { checkTopics, parseTopics } from './topics';
export type {
  CheckKind,
  ContentFiles,
  ContentProblem,
  ContentReport,
  QuestionReport,
  SceneReport,
  TimeReport,
} from './check';
export { checkContent, revealStep, stepTextMismatch } from './check';
export { describeOutcome, describeStep, describeToggles } from './describe';
