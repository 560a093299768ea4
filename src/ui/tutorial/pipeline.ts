/**
 * The chapter renderer's Markdown pipeline (react-markdown): GitHub-flavoured Markdown, GitHub
 * alerts as admonitions, glossary links; then the HTML is sanitised (GitHub's rules, extended
 * only for what the tutorial needs), headings get GitHub-style ids and code is highlighted.
 *
 * Order matters: sanitising comes before rehype-slug and the highlighter, so the ids and the
 * highlighter's classes are added to already-clean HTML and need no exceptions in the schema
 * (ids are not clobbered: `#/learn/<slug>/<heading-id>` finds them). Highlighting is
 * rehypeCode.ts: rehype-highlight's job, without the default grammars it bundles. Raw HTML in
 * the Markdown is dropped (`skipHtml`; there is no rehype-raw), and the sanitiser would remove
 * it anyway.
 */
import type { Options } from 'react-markdown';
import type { PluggableList } from 'unified';
import { defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { remarkAlert } from 'remark-github-blockquote-alert';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import type { Options as SanitizeSchema } from 'rehype-sanitize';
import rehypeSlug from 'rehype-slug';
import type { GlossaryEntry } from '../../tutorial';
import { remarkGlossary } from './glossaryPlugin';
import { highlightLanguages } from './highlight';
import { rehypeCode } from './rehypeCode';

/** The protocol of scene links: `[text](scene:policy=Local&step=last)`. */
export const SCENE_PROTOCOL = 'scene:';

/** The protocol of time links: `[text](time:events=fail:node-1@60s&at=90s)`. */
export const TIME_PROTOCOL = 'time:';

/** Prefix of the DOM ids rehype-slug gives headings (the URL uses the id without it). */
export const HEADING_ID_PREFIX = 'learn-';

/** Fenced blocks the reader renders itself, never highlighted. */
export const SPECIAL_BLOCKS = ['scene', 'question', 'mermaid'] as const;

const attrs = defaultSchema.attributes ?? {};

/**
 * GitHub's sanitising schema plus: `scene:` and `time:` links, and the class names of GitHub alerts
 * (`markdown-alert`, `markdown-alert-note`, …, and their title paragraph).
 */
export const sanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  attributes: {
    ...attrs,
    div: [...(attrs['div'] ?? []), ['className', 'markdown-alert', /^markdown-alert-[a-z]+$/]],
    p: [...(attrs['p'] ?? []), ['className', 'markdown-alert-title']],
  },
  protocols: {
    ...defaultSchema.protocols,
    href: [
      ...(defaultSchema.protocols?.['href'] ?? []),
      SCENE_PROTOCOL.slice(0, -1),
      TIME_PROTOCOL.slice(0, -1),
    ],
  },
};

/**
 * react-markdown's default URL check (it drops `javascript:` and any unknown protocol), except
 * that `scene:` and `time:` links are kept for the scene-link and time-link components.
 */
export function urlTransform(url: string): string {
  return url.startsWith(SCENE_PROTOCOL) || url.startsWith(TIME_PROTOCOL)
    ? url
    : defaultUrlTransform(url);
}

/** The plugins and settings for a chapter (with glossary links) or a glossary definition. */
export function markdownOptions(
  glossary: readonly GlossaryEntry[] | null,
): Pick<Options, 'remarkPlugins' | 'rehypePlugins' | 'urlTransform' | 'skipHtml'> {
  const remarkPlugins: PluggableList = [remarkGfm, remarkAlert];
  if (glossary && glossary.length > 0) remarkPlugins.push([remarkGlossary, { entries: glossary }]);
  return {
    remarkPlugins,
    rehypePlugins: [
      [rehypeSanitize, sanitizeSchema],
      [rehypeSlug, { prefix: HEADING_ID_PREFIX }],
      [rehypeCode, { languages: highlightLanguages, plainText: SPECIAL_BLOCKS }],
    ],
    urlTransform,
    skipHtml: true,
  };
}
