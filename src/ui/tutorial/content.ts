/**
 * The tutorial's text, loaded on demand: every `content/chapters/*.md` (one lazy `?raw` chunk
 * each, fetched together when the reader first opens) and `content/glossary.yaml`, parsed with
 * the tutorial's own loaders. Loaded once per page.
 */
import { loadBook, parseGlossary } from '../../tutorial';
import type { Book, GlossaryEntry, Problem } from '../../tutorial';

/** Everything the reader shows. */
export interface Content {
  /** The chapters in reading order. */
  book: Book;
  /** Glossary entries, alphabetical by term. */
  glossary: GlossaryEntry[];
  /** Problems in the content (a broken chapter is left out of the book, not shown blank). */
  problems: Problem[];
}

const chapterFiles = import.meta.glob<string>('/content/chapters/*.md', {
  query: '?raw',
  import: 'default',
});
const glossaryFiles = import.meta.glob<string>('/content/glossary.yaml', {
  query: '?raw',
  import: 'default',
});

async function load(): Promise<Content> {
  const [chapters, glossaryText] = await Promise.all([
    Promise.all(
      Object.entries(chapterFiles).map(
        async ([path, get]) => [path.slice(1), await get()] as const,
      ),
    ),
    Object.values(glossaryFiles)[0]?.() ?? Promise.resolve(''),
  ]);
  const book = loadBook(Object.fromEntries(chapters));
  const glossary = glossaryText ? parseGlossary(glossaryText) : { entries: [], problems: [] };
  const entries = [...glossary.entries].sort((a, b) =>
    a.term.localeCompare(b.term, 'en', { sensitivity: 'base' }),
  );
  return { book, glossary: entries, problems: [...book.problems, ...glossary.problems] };
}

let content: Promise<Content> | undefined;

/** The tutorial's content; the same promise on every call (a failed load is tried again). */
export function loadContent(): Promise<Content> {
  if (!content) {
    content = load();
    content.catch(() => (content = undefined));
  }
  return content;
}
