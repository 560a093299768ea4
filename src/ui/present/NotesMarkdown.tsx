/**
 * A talk's speaker notes, rendered: they are Markdown (lists, emphasis, code), written for the
 * presenter (src/tutorial/talks.ts). GitHub-flavoured Markdown with the sanitiser the tutorial
 * uses; raw HTML is not rendered. Part of the speaker view's own lazy chunk.
 */
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

const remarkPlugins = [remarkGfm];
const rehypePlugins = [rehypeSanitize];

export function NotesMarkdown({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins}>
      {text}
    </Markdown>
  );
}
