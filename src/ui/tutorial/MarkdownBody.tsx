import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ComponentProps, ReactNode } from 'react';
import Markdown from 'react-markdown';
import type { Components, ExtraProps } from 'react-markdown';
import type { Element, ElementContent } from 'hast';
import type { GlossaryEntry } from '../../tutorial';
import { ErrorBoundary } from '../ErrorBoundary';
import { MermaidDiagram } from './MermaidDiagram';
import { QuestionCard } from './QuestionCard';
import { SceneEmbed } from './SceneEmbed';
import { SceneLink } from './SceneLink';
import { TimeLink } from './TimeLink';
import { useReader } from './context';
import { plainDefinition } from './glossaryPlugin';
import { HEADING_ID_PREFIX, SCENE_PROTOCOL, TIME_PROTOCOL, markdownOptions } from './pipeline';
import { learnHash } from './links';
import { LEARN_PREFIX } from './route';

/** The plain text of a hast subtree. */
export function hastText(node: Element | ElementContent | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(hastText).join('');
  return '';
}

const GLOSSARY_PREFIX = `${LEARN_PREFIX}/glossary/`;

/**
 * A glossary term in the text: a button that shows its definition in a small popover (click or
 * Enter toggles it; Esc closes it and focus returns to the term; a click elsewhere closes it),
 * with a "Glossary →" link to the term's entry on the glossary page.
 */
function TermLink({ id, href, children }: { id: string; href: string; children: ReactNode }) {
  const { glossary } = useReader();
  const tipId = useId();
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const tip = useRef<HTMLSpanElement>(null);
  const entry = glossary.get(id);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!(e.target instanceof Node) || !wrapper.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  // Keep the popover inside the reader: shift it left when it would stick out on the right.
  useLayoutEffect(() => {
    const el = tip.current;
    if (!open || !el) return;
    el.style.left = '';
    const box = el.closest('.reader')?.getBoundingClientRect();
    const r = el.getBoundingClientRect();
    if (box && r.right > box.right - 12)
      el.style.left = `${Math.round(Math.max(box.left + 12 - r.left, box.right - 12 - r.right))}px`;
  }, [open]);

  if (!entry) return <a href={href}>{children}</a>;
  const definition = plainDefinition(entry.definition);
  return (
    <span
      ref={wrapper}
      className="term"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !open) return;
        e.preventDefault();
        setOpen(false);
        button.current?.focus();
      }}
    >
      <button
        ref={button}
        type="button"
        className="term-link"
        aria-expanded={open}
        aria-controls={tipId}
        data-term={id}
        onClick={() => setOpen((o) => !o)}
      >
        {children}
      </button>
      <span
        ref={tip}
        id={tipId}
        className="term-tip"
        role="group"
        aria-label={`${entry.term}, from the glossary`}
        hidden={!open}
        data-testid="term-tip"
      >
        <strong>{entry.term}:</strong> {definition}{' '}
        <a href={href} className="term-more">
          Glossary<span aria-hidden="true"> →</span>
        </a>
      </span>
    </span>
  );
}

function Link({ href = '', children, title }: ComponentProps<'a'> & ExtraProps) {
  const { slug } = useReader();
  if (href.startsWith(SCENE_PROTOCOL))
    return <SceneLink query={href.slice(SCENE_PROTOCOL.length)}>{children}</SceneLink>;
  if (href.startsWith(TIME_PROTOCOL))
    return <TimeLink query={href.slice(TIME_PROTOCOL.length)}>{children}</TimeLink>;
  if (href.startsWith(GLOSSARY_PREFIX))
    return (
      <TermLink id={decodeURIComponent(href.slice(GLOSSARY_PREFIX.length))} href={href}>
        {children}
      </TermLink>
    );
  if (href.startsWith(LEARN_PREFIX))
    return (
      <a href={href} title={title}>
        {children}
      </a>
    );
  // A bare #anchor would leave the reader (the fragment is the app's route): a section here.
  if (href.startsWith('#'))
    return (
      <a href={learnHash({ kind: 'chapter', slug, section: href.slice(1) })} title={title}>
        {children}
      </a>
    );
  if (/^https?:/i.test(href))
    return (
      <a href={href} title={title} target="_blank" rel="noreferrer">
        {children}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  return (
    <a href={href} title={title}>
      {children}
    </a>
  );
}

type HeadingProps = ComponentProps<'h2'> & ExtraProps;

/**
 * A section heading, one level below the chapter title's `h2` (`##` → `h3`), with a `#`
 * permalink to `#/learn/<slug>/<heading-id>`; focusable (tabindex -1) for deep links.
 */
function heading(level: 1 | 2 | 3 | 4 | 5 | 6) {
  const Tag = `h${Math.min(6, level + 1)}` as 'h2';
  return function Heading({ id, children, node }: HeadingProps) {
    const { slug } = useReader();
    const section = id?.startsWith(HEADING_ID_PREFIX) ? id.slice(HEADING_ID_PREFIX.length) : id;
    const text = hastText(node);
    return (
      <Tag id={id} tabIndex={-1} className={`section-heading md-h${level}`}>
        {children}
        {section && slug && (
          <a
            className="permalink"
            href={learnHash({ kind: 'chapter', slug, section })}
            aria-label={`Link to the section “${text}”`}
          >
            #
          </a>
        )}
      </Tag>
    );
  };
}

/** A fenced block: live scene, question, diagram, or highlighted code. */
function Pre({ node, children }: ComponentProps<'pre'> & ExtraProps) {
  const { theme } = useReader();
  const code = node?.children.find(
    (c): c is Element => c.type === 'element' && c.tagName === 'code',
  );
  const classes = code?.properties['className'];
  const lang = (Array.isArray(classes) ? classes : [])
    .map(String)
    .find((c) => c.startsWith('language-'))
    ?.slice('language-'.length);
  const raw = hastText(code);
  switch (lang) {
    case 'scene':
      return (
        <ErrorBoundary name="this live scene">
          <SceneEmbed raw={raw} />
        </ErrorBoundary>
      );
    case 'question':
      return (
        <ErrorBoundary name="this question">
          <QuestionCard raw={raw} />
        </ErrorBoundary>
      );
    case 'mermaid':
      return (
        <ErrorBoundary name="this diagram">
          <MermaidDiagram source={raw.replace(/\n$/, '')} theme={theme} />
        </ErrorBoundary>
      );
    default:
      return (
        // Focusable, so a long line can be scrolled from the keyboard.
        <pre tabIndex={0} {...(lang ? { 'data-lang': lang } : {})}>
          {children}
        </pre>
      );
  }
}

function Table({ children }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Table">
      <table>{children}</table>
    </div>
  );
}

const components: Components = {
  a: Link,
  h1: heading(1),
  h2: heading(2),
  h3: heading(3),
  h4: heading(4),
  h5: heading(5),
  h6: heading(6),
  pre: Pre,
  table: Table,
};

/**
 * Markdown as the tutorial renders it (pipeline.ts), with the tutorial's own pieces: scene links,
 * time links, live scenes, questions, diagrams, glossary links and section permalinks. `glossary` links
 * terms (chapters) or not (glossary definitions).
 */
export const MarkdownBody = memo(function MarkdownBody({
  text,
  glossary,
}: {
  text: string;
  glossary: readonly GlossaryEntry[] | null;
}) {
  const options = useMemo(() => markdownOptions(glossary), [glossary]);
  return (
    <Markdown {...options} components={components}>
      {text}
    </Markdown>
  );
});
