/**
 * The Markdown parser the tutorial's checks use: unified + remark-parse + remark-gfm, the
 * same GitHub-flavoured syntax the renderer reads, so a heading or a link is found exactly
 * where the reader will see one (never in a code block, never in raw text).
 */
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import type { Nodes, Root } from 'mdast';

const processor = unified().use(remarkParse).use(remarkGfm);

/** The mdast tree of a Markdown text (positions are relative to `text`). */
export function parseMarkdown(text: string): Root {
  return processor.runSync(processor.parse(text)) as Root;
}

/** Calls `visit` on every node of the tree, depth first, in document order. */
export function walk(node: Nodes, visit: (n: Nodes) => void): void {
  visit(node);
  if ('children' in node) for (const child of node.children) walk(child, visit);
}
