/**
 * Fenced `scene` and `question` blocks as the renderer receives them (the block's text): read
 * with the tutorial's own block reader, so the app and the content tests read them alike.
 */
import { extractBlocks, parseQuestion } from '../../tutorial';
import type { Question, YamlBlock } from '../../tutorial';

/** The block's text as a one-block Markdown document, read back by `extractBlocks`. */
function block(lang: 'scene' | 'question', raw: string): YamlBlock | undefined {
  const blocks = extractBlocks(`\`\`\`\`${lang}\n${raw.replace(/\n$/, '')}\n\`\`\`\`\n`);
  return (lang === 'scene' ? blocks.sceneBlocks : blocks.questions)[0];
}

/** A `scene` block: its scene query and caption, or why it cannot be read. */
export function readSceneBlock(
  raw: string,
): { ok: true; scene: string; caption: string } | { ok: false; message: string } {
  const b = block('scene', raw);
  if (!b || b.yamlErrors.length > 0)
    return { ok: false, message: `not valid YAML: ${b?.yamlErrors[0]?.message ?? 'empty block'}` };
  const d = b.data as Record<string, unknown> | null;
  const scene = d?.['scene'];
  if (typeof scene !== 'string' || scene.trim() === '')
    return { ok: false, message: 'the block has no "scene:" query' };
  const caption = typeof d?.['caption'] === 'string' ? d['caption'] : '';
  return { ok: true, scene: scene.trim().replace(/^scene:/, ''), caption };
}

/** A `question` block read with `parseQuestion`, or the problems found. */
export function readQuestionBlock(
  raw: string,
): { ok: true; question: Question } | { ok: false; message: string } {
  const b = block('question', raw);
  if (!b) return { ok: false, message: 'empty question block' };
  const { question, problems } = parseQuestion(b, 'question');
  if (question) return { ok: true, question };
  return { ok: false, message: problems.map((p) => p.message).join('; ') || 'unreadable' };
}
