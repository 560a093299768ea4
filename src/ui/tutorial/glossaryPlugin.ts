/**
 * A remark plugin that links the first occurrence of each glossary term (or alias) in a
 * chapter's prose to its entry, `#/learn/glossary/<term-id>`, with the definition as the link's
 * title. Code, headings and existing links are left alone (content/AUTHORING.md, "Glossary").
 * Matching is the tutorial's own `glossaryMatcher` (whole words; code-like and all-caps names
 * match case-sensitively), run on each text node by mdast-util-find-and-replace.
 */
import { findAndReplace } from 'mdast-util-find-and-replace';
import type { RegExpMatchObject } from 'mdast-util-find-and-replace';
import type { Link, PhrasingContent, Root, Text } from 'mdast';
import { glossaryMatcher } from '../../tutorial';
import type { GlossaryEntry, TermMatch } from '../../tutorial';
import { learnHash } from './links';

/** Nodes whose text is never linked. */
const IGNORE = ['link', 'linkReference', 'heading', 'definition', 'inlineCode', 'code', 'html'];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A definition as one line of plain text (for a `title`): Markdown emphasis, code marks and link
 * targets removed.
 */
export function plainDefinition(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * Whether `text[start, end)` is part of a compound name: joined by `-` or `.` to a word
 * character before or after it (`node` in `node-1`, `Service` in `Service.spec`), which is not
 * the term itself.
 */
export function inCompound(text: string, start: number, end: number): boolean {
  const before = text.charAt(start - 1);
  const after = text.charAt(end);
  return (
    ((before === '-' || before === '.') && WORD.test(text.charAt(start - 2))) ||
    ((after === '-' || after === '.') && WORD.test(text.charAt(end + 1)))
  );
}

/** The plugin's options: the glossary's entries. */
export interface GlossaryPluginOptions {
  entries: readonly GlossaryEntry[];
}

/**
 * remark plugin: links the first occurrence per document of each entry. A fresh set of linked
 * terms per run, so each chapter links its own first occurrences.
 */
export function remarkGlossary({ entries }: GlossaryPluginOptions) {
  const matcher = glossaryMatcher(entries);
  const byId = new Map(entries.map((e) => [e.id, e]));
  const names = entries
    .flatMap((e) => [e.term, ...e.aliases])
    .sort((a, b) => b.length - a.length)
    .map(escape);
  // Finds candidates in any case; the matcher decides (case, whole words).
  const find = names.length > 0 ? new RegExp(names.join('|'), 'giu') : null;
  return (tree: Root) => {
    if (!find) return;
    const linked = new Set<string>();
    let lastInput: string | undefined;
    let hits: TermMatch[] = [];
    const replace = (value: string, match: RegExpMatchObject): PhrasingContent[] | false => {
      if (match.input !== lastInput) {
        lastInput = match.input;
        hits = matcher.find(match.input);
      }
      const hit = hits.find((h) => h.index === match.index);
      if (!hit || linked.has(hit.id) || hit.length > value.length) return false;
      if (inCompound(match.input, hit.index, hit.index + hit.length)) return false;
      const entry = byId.get(hit.id);
      if (!entry) return false;
      linked.add(hit.id);
      const link: Link = {
        type: 'link',
        url: learnHash({ kind: 'glossary', term: hit.id }),
        title: plainDefinition(entry.definition),
        children: [{ type: 'text', value: hit.text }],
      };
      const rest: Text[] =
        hit.length < value.length ? [{ type: 'text', value: value.slice(hit.length) }] : [];
      return [link, ...rest];
    };
    findAndReplace(tree, [find, replace], { ignore: IGNORE });
  };
}
