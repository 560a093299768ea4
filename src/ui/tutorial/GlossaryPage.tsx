import { useEffect, useRef } from 'react';
import type { GlossaryEntry } from '../../tutorial';
import { MarkdownBody } from './MarkdownBody';
import { learnHash } from './links';

/** The DOM id of a term on the glossary page. */
export const termDomId = (id: string) => `learn-term-${id}`;

/**
 * The glossary: every term alphabetically, each with its aliases, definition and a permalink
 * (`#/learn/glossary/<term-id>`); a deep link scrolls to its term and focuses it.
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
  useEffect(() => {
    const target = term
      ? list.current?.querySelector<HTMLElement>(`#${CSS.escape(termDomId(term))}`)
      : null;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    if (target) {
      target.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
      target.focus({ preventScroll: true });
    } else title.current?.focus();
  }, [term]);
  return (
    <article className="chapter glossary" data-testid="glossary" data-term={term ?? ''}>
      <h2 ref={title} tabIndex={-1} className="chapter-title">
        Glossary
      </h2>
      {back && (
        <p>
          <a href={learnHash({ kind: 'chapter', slug: back.slug })}>
            <span aria-hidden="true">← </span>Back to “{back.title}”
          </a>
        </p>
      )}
      {entries.length === 0 ? (
        <p>The glossary is empty.</p>
      ) : (
        <dl ref={list}>
          {entries.map((e) => (
            <div key={e.id} className={e.id === term ? 'glossary-entry current' : 'glossary-entry'}>
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
