/**
 * Highlights fenced code (`<pre><code class="language-x">`) with lowlight (highlight.js) in the
 * tutorial's languages only.
 *
 * It does what rehype-highlight does with `detect: false`, minus one thing: rehype-highlight
 * imports lowlight's `common` set of ~37 grammars as its default, which costs the reader's chunk
 * about 50 KB gzip even when `languages` replaces it. Here lowlight gets only `languages`
 * (src/ui/tutorial/highlight.ts). Output is the same: `hljs` on the `code` element and
 * `hljs-<scope>` spans inside (lowlight's `highlight`).
 */
import { createLowlight } from 'lowlight';
import type { LanguageFn } from 'highlight.js';
import type { Element, ElementContent, Root, RootContent } from 'hast';

/** Options: the grammars by name, and languages left as plain text. */
export interface RehypeCodeOptions {
  languages: Readonly<Record<string, LanguageFn>>;
  plainText?: readonly string[];
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function languageOf(code: Element): string | undefined {
  const classes = code.properties['className'];
  if (!Array.isArray(classes)) return undefined;
  for (const c of classes.map(String)) {
    if (c === 'no-highlight' || c === 'nohighlight') return undefined;
    if (c.startsWith('language-')) return c.slice('language-'.length);
  }
  return undefined;
}

/** rehype plugin: highlights `pre > code` blocks whose language is registered. */
export function rehypeCode({ languages, plainText = [] }: RehypeCodeOptions) {
  const lowlight = createLowlight({ ...languages });
  const visit = (node: Root | RootContent) => {
    if (node.type !== 'root' && node.type !== 'element') return;
    if (node.type === 'element' && node.tagName === 'pre') {
      for (const code of node.children) {
        if (code.type !== 'element' || code.tagName !== 'code') continue;
        const lang = languageOf(code);
        if (!lang || plainText.includes(lang) || !lowlight.registered(lang)) continue;
        const tree = lowlight.highlight(lang, code.children.map(textOf).join(''));
        const classes = Array.isArray(code.properties['className'])
          ? code.properties['className']
          : [];
        code.properties['className'] = ['hljs', ...classes];
        if (tree.children.length > 0) code.children = tree.children as ElementContent[];
      }
      return;
    }
    node.children.forEach(visit);
  };
  return (tree: Root) => visit(tree);
}
