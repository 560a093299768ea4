import type { Chapter } from '../../tutorial';
import { learnHash } from './links';

/**
 * The table of contents: every chapter in reading order, the current one marked with
 * `aria-current`, read ones with "✓ read" (text, not only a mark).
 */
export function Toc({
  chapters,
  current,
  read,
}: {
  chapters: readonly Chapter[];
  current: string | undefined;
  read: readonly string[];
}) {
  return (
    <nav className="toc" aria-label="Chapters" data-testid="toc">
      <ol>
        {chapters.map((c) => {
          const done = read.includes(c.slug);
          return (
            <li key={c.slug} data-chapter={c.slug} data-read={done}>
              <a
                href={learnHash({ kind: 'chapter', slug: c.slug })}
                aria-current={c.slug === current ? 'page' : undefined}
                title={c.summary}
              >
                {c.title}
              </a>
              {done && (
                <span className="toc-read">
                  <span aria-hidden="true">✓</span> read
                </span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
