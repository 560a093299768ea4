import { useEffect, useRef } from 'react';
import { startPresenting } from '../present/entry';
import { CHAPTER_TALK_PREFIX } from '../present/talkContent';
import type { Chapter, GlossaryEntry } from '../../tutorial';
import { MarkdownBody } from './MarkdownBody';
import { HEADING_ID_PREFIX } from './pipeline';
import { learnHash } from './links';
import { scrollBehavior } from './layout';
import {
  applyAnchor,
  captureAnchor,
  readPlace,
  rememberLeft,
  takeResume,
  writePlace,
} from './place';

/** How long the reader must rest before its place is written into the history entry. */
const SAVE_DELAY_MS = 250;

/**
 * Scrolls the reader (only the reader, never the page) so `el` is at its top, smoothly unless
 * motion is reduced, and focuses it.
 */
function reveal(reader: HTMLElement, el: HTMLElement): void {
  const top = el.getBoundingClientRect().top - reader.getBoundingClientRect().top;
  reader.scrollTo({ top: reader.scrollTop + top - 8, behavior: scrollBehavior() });
  el.focus({ preventScroll: true });
}

/**
 * One chapter: its title (focused when the chapter or section changes), the body, and links to
 * the previous and next chapters. `onEnd` is called once the end of the chapter has been on
 * screen inside the reader's scroll box (the learner read it). Back/Forward and the glossary's
 * "Back to …" link reopen it where it was read (place.ts). When the visualiser holds the
 * learner's own cluster (`held`), the chapter's scene was not applied: a button offers it.
 */
export function ChapterView({
  chapter,
  section,
  prev,
  nextChapter,
  glossary,
  onEnd,
  held,
  onShowScene,
}: {
  chapter: Chapter;
  section: string | undefined;
  prev: Chapter | undefined;
  nextChapter: Chapter | undefined;
  glossary: readonly GlossaryEntry[];
  onEnd: () => void;
  held: boolean;
  onShowScene: () => void;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  const article = useRef<HTMLElement>(null);
  const end = useRef<HTMLElement>(null);
  // A section the chapter does not have (an old or mistyped deep link) is said so.
  // Section ids are GitHub's slugs (lower case); a link in another case still finds its section.
  const sectionId =
    section === undefined
      ? undefined
      : (
          chapter.headings.find((h) => h.id === section) ??
          chapter.headings.find((h) => h.id === section.toLowerCase())
        )?.id;
  const missing = section !== undefined && sectionId === undefined ? section : undefined;

  useEffect(() => {
    const el = article.current;
    const reader = el?.closest<HTMLElement>('.reader');
    if (!el || !reader) return;
    const target = sectionId
      ? el.querySelector<HTMLElement>(`#${CSS.escape(HEADING_ID_PREFIX + sectionId)}`)
      : null;
    if (target) return reveal(reader, target);
    title.current?.focus({ preventScroll: true });
    const anchor = section ? undefined : (readPlace()?.anchor ?? takeResume(chapter.slug));
    if (!anchor || !applyAnchor(reader, el, anchor)) reader.scrollTop = 0;
  }, [chapter.slug, section, sectionId]);

  // Remember the place (debounced): in the history entry, and for the glossary's Back link. A
  // link pressed in the reader writes it at once, before the address changes; a late write never
  // lands in another entry.
  useEffect(() => {
    const el = article.current;
    const reader = el?.closest<HTMLElement>('.reader');
    if (!el || !reader) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hash = window.location.hash;
    const save = () => {
      timer = undefined;
      const anchor = captureAnchor(reader, el);
      rememberLeft(chapter.slug, anchor);
      if (anchor && window.location.hash === hash) writePlace({ anchor });
    };
    const onScroll = () => {
      if (timer !== undefined) clearTimeout(timer);
      hash = window.location.hash;
      timer = setTimeout(save, SAVE_DELAY_MS);
    };
    const onClick = (e: MouseEvent) => {
      if (!(e.target instanceof Element) || !e.target.closest('a[href]')) return;
      if (timer !== undefined) clearTimeout(timer);
      hash = window.location.hash;
      save();
    };
    reader.addEventListener('scroll', onScroll, { passive: true });
    reader.addEventListener('click', onClick, true);
    return () => {
      reader.removeEventListener('scroll', onScroll);
      reader.removeEventListener('click', onClick, true);
      if (timer !== undefined) {
        clearTimeout(timer);
        rememberLeft(chapter.slug, captureAnchor(reader, el));
      }
    };
  }, [chapter.slug]);

  // Blocks above the reading position that change height (a diagram drawn late, a note that
  // appears) never move the text being read: the reader scrolls by as much. (The reader turns
  // the browser's own scroll anchoring off, which picks a growing diagram itself as its anchor.)
  useEffect(() => {
    const el = article.current;
    const reader = el?.closest<HTMLElement>('.reader');
    if (!el || !reader || typeof ResizeObserver === 'undefined') return;
    const heights = new WeakMap<Element, number>();
    const observer = new ResizeObserver((entries) => {
      const top = reader.getBoundingClientRect().top;
      let shift = 0;
      for (const entry of entries) {
        const height = entry.target.getBoundingClientRect().height;
        const before = heights.get(entry.target);
        heights.set(entry.target, height);
        if (before === undefined || before === height) continue;
        if (entry.target.getBoundingClientRect().top < top) shift += height - before;
      }
      if (shift !== 0 && reader.scrollTop > 0) reader.scrollTop += shift;
    });
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [chapter.slug]);

  // Read = the end of the chapter came into the reader's own scroll box.
  useEffect(() => {
    const el = end.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const root = el.closest<HTMLElement>('.reader');
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer.disconnect();
          onEnd();
        }
      },
      { root },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [chapter.slug, onEnd]);

  return (
    <article
      ref={article}
      className="chapter"
      data-testid="chapter"
      data-chapter={chapter.slug}
      data-section={section ?? ''}
    >
      <h2 ref={title} tabIndex={-1} className="chapter-title">
        {chapter.title}
      </h2>
      <p className="chapter-summary">{chapter.summary}</p>
      {/* Always there (maybe empty), so the blocks after it keep their index (place.ts). */}
      <div className="chapter-notes">
        <p className="chapter-present">
          <button
            type="button"
            onClick={() => startPresenting(`${CHAPTER_TALK_PREFIX}${chapter.slug}`)}
            data-testid="present-chapter"
          >
            Present this chapter
          </button>
        </p>
        {missing !== undefined && (
          <p className="reader-notice" role="note" data-testid="section-not-found">
            This chapter has no section “{missing}”: the link may be old or mistyped. The chapter
            opens at its start.
          </p>
        )}
        {held && chapter.scene !== undefined && (
          <div className="chapter-scene-held" data-testid="chapter-scene-held">
            <p>
              The visualiser shows your own cluster, so this chapter left it alone. Its links switch
              to the tutorial’s scenario when you press them; your cluster is kept, and Restore
              brings it back.
            </p>
            <button type="button" className="scene-link" onClick={onShowScene}>
              <span aria-hidden="true">▶ </span>Show this chapter’s scene
            </button>
          </div>
        )}
      </div>
      <MarkdownBody text={chapter.body} glossary={glossary} />
      <nav ref={end} className="chapter-nav" aria-label="Previous and next chapter">
        {prev ? (
          <a
            href={learnHash({ kind: 'chapter', slug: prev.slug })}
            rel="prev"
            data-testid="prev-chapter"
          >
            <span aria-hidden="true">← </span>Previous: {prev.title}
          </a>
        ) : (
          <span />
        )}
        {nextChapter && (
          <a
            href={learnHash({ kind: 'chapter', slug: nextChapter.slug })}
            rel="next"
            data-testid="next-chapter"
          >
            Next: {nextChapter.title}
            <span aria-hidden="true"> →</span>
          </a>
        )}
      </nav>
    </article>
  );
}
