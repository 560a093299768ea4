/**
 * A problem found in the tutorial's content, located by file and line, so an author can jump
 * to it (`content/chapters/07-traffic-policy.md:3: order must be an integer`).
 */

/** One problem in one content file. `line` is 1-based; 1 when the whole file is concerned. */
export interface Problem {
  /** The file's path as given to the loader, e.g. `content/chapters/07-traffic-policy.md`. */
  file: string;
  line: number;
  message: string;
}

/** `file:line: message`, the form editors and terminals turn into a link. */
export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.message}`;
}

/** Problems sorted by file, then line (stable for equal positions). */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) =>
    a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1,
  );
}
