/**
 * A remark plugin that links the first occurrence of each glossary term (or alias) in a
 * chapter's prose to its entry, `#/learn/glossary/<term-id>`, with the definition as the link's
 * title (the reader shows it in a popover). Headings and existing links are left alone; inline
 * code is linked only when its whole text is a term or alias (`healthCheckNodePort`,
 * `spec.externalTrafficPolicy`), and quoted text (an event message, "Error syncing load
 * balancer: …") not at all (content/AUTHORING.md, "Glossary"). Matching is the tutorial's own
 * `glossaryMatcher` (whole words; code-like and all-caps names match case-sensitively; a
 * lower-case name of several words not inside a capitalised product name), over the tree in
 * document order so "first" means first whether the term is in prose or in code.
 */
import type { InlineCode, Link, Parent, PhrasingContent, Root, RootContent, Text } from 'mdast';
import { glossaryMatcher } from '../../tutorial';
import type { GlossaryEntry } from '../../tutorial';
import { learnHash } from './links';

/** Nodes whose text is never linked. */
const IGNORE = new Set(['link', 'linkReference', 'heading', 'definition', 'code', 'html']);

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

/**
 * Whether offset `at` of `text` sits inside a quotation: after an odd number of straight double
 * quotes, or after an opening “ that is not closed yet.
 */
export function insideQuotes(text: string, at: number): boolean {
  const before = text.slice(0, at);
  if ((before.match(/"/g) ?? []).length % 2 === 1) return true;
  return before.lastIndexOf('“') > before.lastIndexOf('”');
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
  const link = (id: string, children: PhrasingContent[]): Link | null => {
    const entry = byId.get(id);
    if (!entry) return null;
    return {
      type: 'link',
      url: learnHash({ kind: 'glossary', term: id }),
      title: plainDefinition(entry.definition),
      children,
    };
  };
  return (tree: Root) => {
    if (entries.length === 0) return;
    const linked = new Set<string>();

    const splitText = (node: Text): PhrasingContent[] | null => {
      const value = node.value;
      const out: PhrasingContent[] = [];
      let from = 0;
      for (const hit of matcher.find(value)) {
        const end = hit.index + hit.length;
        if (linked.has(hit.id)) continue;
        if (insideQuotes(value, hit.index)) continue;
        const l = link(hit.id, [{ type: 'text', value: hit.text }]);
        if (!l) continue;
        linked.add(hit.id);
        if (hit.index > from) out.push({ type: 'text', value: value.slice(from, hit.index) });
        out.push(l);
        from = end;
      }
      if (out.length === 0) return null;
      if (from < value.length) out.push({ type: 'text', value: value.slice(from) });
      return out;
    };

    const codeLink = (node: InlineCode): Link | null => {
      const id = matcher.code(node.value);
      if (id === undefined || linked.has(id)) return null;
      const l = link(id, [node]);
      if (l) linked.add(id);
      return l;
    };

    const walk = (parent: Parent) => {
      const children = parent.children as RootContent[];
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (IGNORE.has(child.type)) continue;
        if (child.type === 'text') {
          const parts = splitText(child);
          if (parts) {
            children.splice(i, 1, ...parts);
            i += parts.length - 1;
          }
        } else if (child.type === 'inlineCode') {
          const l = codeLink(child);
          if (l) children[i] = l;
        } else if ('children' in child) walk(child);
      }
    };
    walk(tree);
  };
}
