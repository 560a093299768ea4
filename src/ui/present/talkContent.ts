/**
 * Talks in the browser: every `content/talks/*.md` as its own lazy `?raw` chunk, read with the
 * tutorial's talk parser (src/tutorial/talks.ts), which is itself imported on first use, so
 * neither the talks nor the Markdown parser reach the initial bundle. A tutorial chapter is a
 * talk too: `loadTalk('chapter:<slug>')`.
 */
import type { StepNarration, Talk, TalkProblem } from '../../tutorial/talks';

/** One talk in the list: what a picker shows. */
export interface TalkSummary {
  /** The file name without `.md`: what {@link loadTalk} takes. */
  id: string;
  title: string;
  summary: string;
  /** `duration` from the front matter, ms; null when not given. */
  durationMs: number | null;
  /** Beats as written (a `steps:` beat counts once). */
  beats: number;
}

const talkFiles = import.meta.glob<string>('/content/talks/*.md', {
  query: '?raw',
  import: 'default',
});

/** `/content/talks/cluster-vs-local.md` → `cluster-vs-local`. */
const idOf = (path: string) => path.slice(path.lastIndexOf('/') + 1, -'.md'.length);

/** The prefix of a chapter's talk id: `chapter:traffic-policy`. */
export const CHAPTER_TALK_PREFIX = 'chapter:';

const problemText = (id: string, problems: readonly TalkProblem[]) =>
  problems.map((p) => `content/talks/${id}.md:${p.line}: ${p.message}`).join('; ');

/**
 * The talks in content/talks that parse, sorted by `order` (talks without one last), then title.
 * A talk with problems is left out (the tests keep the shipped ones clean). Never rejects
 * unless a chunk cannot be fetched.
 */
export async function listTalks(): Promise<TalkSummary[]> {
  const { parseTalk } = await import('../../tutorial/talks');
  const parsed = await Promise.all(
    Object.entries(talkFiles).map(async ([path, get]) => parseTalk(idOf(path), await get())),
  );
  return parsed
    .flatMap((r) => (r.ok ? [r.talk] : []))
    .sort(
      (a, b) =>
        (a.order ?? Number.MAX_SAFE_INTEGER) - (b.order ?? Number.MAX_SAFE_INTEGER) ||
        a.title.localeCompare(b.title, 'en'),
    )
    .map((t) => ({
      id: t.id,
      title: t.title,
      summary: t.summary,
      durationMs: t.durationMs,
      beats: t.beats.length,
    }));
}

/**
 * The talk `id`, ready to present: parsed, and every `steps:` beat expanded into one beat per
 * trace step (`expandTalk`, with each scene resolved as a scene link is, its example fetched),
 * so beat i is simply `talk.beats[i]` and every beat has `steps: null`. `chapter:<slug>` gives
 * the tutorial chapter as a talk (`talkFromChapter`; its beats need no expansion).
 * @throws {Error} for an unknown id, a talk file with problems or a `steps:` beat that does not
 *   resolve, the message listing each problem as `content/talks/<id>.md:<line>: <message>`.
 */
export async function loadTalk(id: string): Promise<Talk> {
  const talks = await import('../../tutorial/talks');
  if (id.startsWith(CHAPTER_TALK_PREFIX)) {
    const slug = id.slice(CHAPTER_TALK_PREFIX.length);
    const { loadContent } = await import('../tutorial/content');
    const chapter = (await loadContent()).book.chapters.find((c) => c.slug === slug);
    if (!chapter) throw new Error(`no tutorial chapter "${slug}"`);
    return talks.talkFromChapter(chapter);
  }
  const get = Object.entries(talkFiles).find(([path]) => idOf(path) === id)?.[1];
  if (!get)
    throw new Error(
      `no talk "${id}" in content/talks (talks: ${Object.keys(talkFiles).map(idOf).join(', ')})`,
    );
  const parsed = talks.parseTalk(id, await get());
  if (!parsed.ok) throw new Error(problemText(id, parsed.problems));
  const { resolveScene, resolveErrors } = await import('../tutorial/scenes');
  const narration = new Map<string, readonly StepNarration[] | string>();
  for (const beat of parsed.talk.beats)
    if (beat.steps && beat.show.kind === 'scene' && !narration.has(beat.show.query)) {
      const r = await resolveScene(beat.show.query);
      narration.set(
        beat.show.query,
        r.ok ? r.scene.result.trace.steps.map((s) => s.narration) : resolveErrors(r),
      );
    }
  const expanded = talks.expandTalk(parsed.talk, (query) => narration.get(query) ?? 'not resolved');
  if (!expanded.ok) throw new Error(problemText(id, expanded.problems));
  return expanded.talk;
}
