import { useEffect, useRef } from 'react';
import type { Chapter, GlossaryEntry } from '../../tutorial';
import { MarkdownBody } from './MarkdownBody';
import { HEADING_ID_PREFIX } from './pipeline';
import { learnHash } from './links';

/** Scrolls `el` to the top of its scroll containers (smoothly unless motion is reduced). */
function reveal(el: HTMLElement): void {
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
  el.focus({ preventScroll: true });
}

/**
 * One chapter: its title (focused when the chapter or section changes), the body, and links to
 * the previous and next chapters. `onEnd` is called once the end of the chapter has been on
 * screen (the learner read it).
 */
export function ChapterView({
  chapter,
  section,
  prev,
  nextChapter,
  glossary,
  onEnd,
}: {
  chapter: Chapter;
  section: string | undefined;
  prev: Chapter | undefined;
  nextChapter: Chapter | undefined;
  glossary: readonly GlossaryEntry[];
  onEnd: () => void;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  const article = useRef<HTMLElement>(null);
  const end = useRef<HTMLElement>(null);

  useEffect(() => {
    const target = section
      ? article.current?.querySelector<HTMLElement>(`#${CSS.escape(HEADING_ID_PREFIX + section)}`)
      : null;
    if (target) return reveal(target);
    const reader = article.current?.closest<HTMLElement>('.reader');
    if (reader) reader.scrollTop = 0;
    title.current?.focus();
  }, [chapter.slug, section]);

  useEffect(() => {
    const el = end.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        onEnd();
      }
    });
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
