import { useEffect, useRef } from 'react';
import { findGlossaryEntry } from '../../tutorial';
import type { GlossaryEntry } from '../../tutorial';
import { MarkdownBody } from './MarkdownBody';
import { learnHash } from './links';
import { scrollBehavior } from './layout';
import { resumeNext } from './place';

/** The DOM id of a term on the glossary page. */
export const termDomId = (id: string) => `learn-term-${id}`;

/**
 * The glossary: every term alphabetically, each with its aliases, definition and a permalink
 * (`#/learn/glossary/<term-id>`); a deep link scrolls to its term (found in any case, by term or
 * alias) and focuses it; a term it does not have is said so. "Back to …" reopens the chapter
 * where it was left.
 */
export function GlossaryPage({
  entries,
  term,
  back,
}: {
  entries: readonly GlossaryEntry[];
  term: string | undefined;
  back: { slug: string; title: string } | undefined;
}) {
  const title = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLDListElement>(null);
  const found = findGlossaryEntry(entries, term);
  const id = found?.id;
  useEffect(() => {
    const target = id
      ? list.current?.querySelector<HTMLElement>(`#${CSS.escape(termDomId(id))}`)
      : null;
    const reader = target?.closest<HTMLElement>('.reader');
    if (target && reader) {
      // The reader scrolls, never the page.
      const top = target.getBoundingClientRect().top - reader.getBoundingClientRect().top;
      reader.scrollTo({ top: reader.scrollTop + top - 8, behavior: scrollBehavior() });
      target.focus({ preventScroll: true });
    } else {
      title.current?.focus({ preventScroll: true });
      const r = title.current?.closest<HTMLElement>('.reader');
      if (r) r.scrollTop = 0;
    }
  }, [id, term]);
  return (
    <article className="chapter glossary" data-testid="glossary" data-term={id ?? term ?? ''}>
      <h2 ref={title} tabIndex={-1} className="chapter-title">
        Glossary
      </h2>
      {back && (
        <p>
          <a
            href={learnHash({ kind: 'chapter', slug: back.slug })}
            onClick={() => resumeNext(back.slug)}
          >
            <span aria-hidden="true">← </span>Back to “{back.title}”
          </a>
        </p>
      )}
      {term && !found && entries.length > 0 && (
        <p className="reader-notice" role="note" data-testid="term-not-found">
          The glossary has no term “{term}”: the link may be old or mistyped. Every term is listed
          below.
        </p>
      )}
      {entries.length === 0 ? (
        <p>The glossary is empty.</p>
      ) : (
        <dl ref={list}>
          {entries.map((e) => (
            <div key={e.id} className={e.id === id ? 'glossary-entry current' : 'glossary-entry'}>
              <dt id={termDomId(e.id)} tabIndex={-1}>
                <span className="glossary-term">{e.term}</span>
                {e.aliases.length > 0 && (
                  <span className="glossary-aliases"> (also: {e.aliases.join(', ')})</span>
                )}
                <a
                  className="permalink"
                  href={learnHash({ kind: 'glossary', term: e.id })}
                  aria-label={`Link to “${e.term}”`}
                >
                  #
                </a>
              </dt>
              <dd>
                <MarkdownBody text={e.definition} glossary={null} />
              </dd>
            </div>
          ))}
        </dl>
      )}
    </article>
  );
}
