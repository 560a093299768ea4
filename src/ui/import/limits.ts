/**
 * The importer's size limits, light enough for the main thread (no parser behind them).
 *
 * - Text and files: at most {@link MAX_TEXT_BYTES}, counted in UTF-8 bytes (what a file's
 *   `size` says, and what `kubectl … -o yaml > file` writes); the user reads "10 MB".
 * - Problems: the list and the editor's underlines show the first {@link MAX_SHOWN_PROBLEMS},
 *   then "and N more".
 */
import type { Analysis } from './analyse';

/** 10 MiB = 10 × 1024 × 1024 bytes of UTF-8: longer text and larger files are refused. */
export const MAX_TEXT_BYTES = 10 * 1024 * 1024;

/** How the limit is said to the user. */
export const MAX_TEXT_WORDS = '10 MB';

/** Problems listed and underlined; the rest are counted ("and N more"). */
export const MAX_SHOWN_PROBLEMS = 100;

import type { SceneOptions } from '../../model/scenario/scene';

/** Texts longer than this (UTF-16 units) are measured by `TextEncoder`. */
const NATIVE_FROM = 65_536;

/** The UTF-8 length of `s` in bytes (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8Length(s: string): number {
  // A long text is measured natively (the loop took ~100 ms on 5 MB); the count is the same:
  // a lone surrogate becomes U+FFFD, 3 bytes, as below.
  if (s.length > NATIVE_FROM && typeof TextEncoder === 'function')
    return new TextEncoder().encode(s).length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** What the worker sends back: at most {@link MAX_SHOWN_PROBLEMS} problems, the rest counted. */
export interface ShownAnalysis extends Analysis {
  /** Problems left out of `problems` (the counts `errors` and `warnings` include them). */
  more: number;
  /** False when `objects` was left behind in the worker (ask again with objects to apply). */
  hasObjects: boolean;
  /**
   * With the objects, when they can be applied: the scene they show as they are
   * (`sceneForObjects(objects, 0)`), read in the worker that holds them.
   */
  scene?: SceneOptions;
}

/**
 * `a` with its problems cut to the first {@link MAX_SHOWN_PROBLEMS} (and, unless `objects`,
 * without its objects), so that passing it to the main thread stays cheap at any size.
 */
export function shown(a: Analysis, objects: boolean): ShownAnalysis {
  const problems = a.problems.slice(0, MAX_SHOWN_PROBLEMS);
  return {
    ...a,
    problems,
    more: a.problems.length - problems.length,
    objects: objects ? a.objects : [],
    hasObjects: objects,
  };
}
