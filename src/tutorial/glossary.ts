/**
 * The glossary (`content/glossary.yaml`): a list of `{ term, aliases?, definition }`, and a
 * matcher that finds terms in prose. Data and matching only; linking the first occurrence in
 * each chapter is the renderer's job.
 */
import { slug } from 'github-slugger';
import type { Problem } from './problem';
import { isRecord, parseYaml } from './yamlLines';

/** One glossary entry. */
export interface GlossaryEntry {
  /** The term's slug (github-slugger), e.g. `externaltrafficpolicy`; unique. */
  id: string;
  term: string;
  aliases: string[];
  /** One to three sentences, Markdown. */
  definition: string;
  /** 1-based line of the entry in the glossary file. */
  line: number;
}

const FIELDS = ['term', 'aliases', 'definition'];

/**
 * Reads and checks the glossary: a list of mappings with a non-empty `term` and `definition`,
 * `aliases` a list of non-empty strings; every term and alias unique, compared
 * case-insensitively; every id unique. Never throws.
 */
export function parseGlossary(
  text: string,
  file = 'content/glossary.yaml',
): { entries: GlossaryEntry[]; problems: Problem[] } {
  const y = parseYaml(text);
  const problems: Problem[] = y.errors.map((e) => ({
    file,
    line: e.line,
    message: `not valid YAML: ${e.message}`,
  }));
  const entries: GlossaryEntry[] = [];
  if (problems.length > 0) return { entries, problems };
  if (!Array.isArray(y.data)) {
    problems.push({
      file,
      line: 1,
      message: 'the glossary must be a list of { term, aliases?, definition }',
    });
    return { entries, problems };
  }
  const names = new Map<string, string>();
  const ids = new Map<string, string>();
  y.data.forEach((item: unknown, i) => {
    const at = (path: (string | number)[], message: string) =>
      problems.push({ file, line: y.lineOf([i, ...path]), message });
    if (!isRecord(item))
      return at([], `entry ${i + 1} must be a mapping { term, aliases?, definition }`);
    for (const k of Object.keys(item))
      if (!FIELDS.includes(k)) at([k], `unknown field "${k}" (fields: ${FIELDS.join(', ')})`);
    const { term, definition, aliases = [] } = item;
    if (typeof term !== 'string' || term.trim() === '')
      return at(['term'], `entry ${i + 1}: term must be a non-empty string`);
    if (typeof definition !== 'string' || definition.trim() === '')
      at(['definition'], `${term}: definition must be a non-empty string`);
    if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== 'string' || a.trim() === ''))
      return at(['aliases'], `${term}: aliases must be a list of non-empty strings`);
    const id = slug(term.trim());
    const other = ids.get(id);
    if (other !== undefined) at(['term'], `${term}: id "${id}" is already used by "${other}"`);
    ids.set(id, term);
    for (const [j, name] of [term, ...(aliases as string[])].entries()) {
      const key = name.trim().toLowerCase();
      const owner = names.get(key);
      if (owner !== undefined)
        at(
          j === 0 ? ['term'] : ['aliases', j - 1],
          `"${name}" is already a term or alias of "${owner}"`,
        );
      else names.set(key, term);
    }
    if (typeof definition === 'string')
      entries.push({
        id,
        term: term.trim(),
        aliases: (aliases as string[]).map((a) => a.trim()),
        definition: definition.trim(),
        line: y.lineOf([i]),
      });
  });
  return { entries, problems };
}

/**
 * The entry a name refers to, as a deep link `#/learn/glossary/<name>` gives it: its id, or the
 * term's or one of its aliases' own spelling in any case (`healthCheckNodePort`,
 * `Health Checks`), compared by their github-slugger slugs. Undefined when none matches.
 */
export function findGlossaryEntry(
  entries: readonly GlossaryEntry[],
  name: string | undefined,
): GlossaryEntry | undefined {
  if (name === undefined || name.trim() === '') return undefined;
  const wanted = slug(name.trim());
  return (
    entries.find((e) => e.id === name) ??
    entries.find((e) => e.id === wanted) ??
    entries.find((e) => e.aliases.some((a) => slug(a) === wanted))
  );
}

/** One place a glossary term occurs in a text. */
export interface TermMatch {
  /** The entry's id. */
  id: string;
  /** Offset of the first character (UTF-16 code units) and the length of the match. */
  index: number;
  length: number;
  /** The text as it occurs. */
  text: string;
}

/**
 * Whether a name must match exactly as written: all-caps names (DNAT, SNAT) and code-like
 * names (a capital after the first letter, as in ClusterIP or NodePort, or a `.`, `_` or `/`,
 * as in status.loadBalancer). Other names match in any case, except that a capitalised name
 * keeps its capital ("Pod" matches "Pods" but not "pod"; "node" matches "Node").
 */
export function isCaseSensitive(name: string): boolean {
  if (/[._/]/.test(name)) return true;
  if (/^[^a-z]*[A-Z][^a-z]*$/.test(name)) return true;
  return name.split(/[\s-]+/).some((w) => /^.+[A-Z]/.test(w));
}

const WORD = /[\p{L}\p{N}_]/u;
/**
 * Whether `text[at, end)` sits inside a longer word or name: a letter, digit or `_` beside it,
 * or a `-` or `.` joining it to one (`node` in `node-1`, `load balancer` in `load-balancer`,
 * `Service` in `Service.spec`).
 */
function insideWord(text: string, at: number, end: number): boolean {
  const before = text.charAt(at - 1);
  const after = text.charAt(end);
  if (WORD.test(before) || WORD.test(after)) return true;
  const joins = (c: string) => c === '-' || c === '.';
  if (joins(before) && WORD.test(text.charAt(at - 2))) return true;
  return joins(after) && WORD.test(text.charAt(end + 1));
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds glossary terms in prose. */
export interface GlossaryMatcher {
  /**
   * Every occurrence, left to right, never overlapping; at one place the longest name wins.
   * A name matches only as a whole word (not inside a longer word). A lower-case name of several
   * words does not match where a later word is capitalised: "load balancer" is not the term in
   * "AWS Load Balancer Controller" or "Network Load Balancer", which are product names.
   */
  find(text: string): TermMatch[];
  /**
   * The id of the entry whose term or alias is exactly `code` (as written, case and all), or is
   * exactly it after `spec.` (`spec.externalTrafficPolicy`); for inline code, which is linked only
   * when its whole text names a term. Undefined otherwise.
   */
  code(code: string): string | undefined;
}

/** Whether a later word of `part` starts with a capital (a product name: "Network Load Balancer"). */
function capitalisedLater(part: string): boolean {
  return part
    .split(/\s+/)
    .slice(1)
    .some((w) => /^\p{Lu}/u.test(w));
}

/** A matcher over every term and alias of `entries`, longest names first. */
export function glossaryMatcher(entries: readonly GlossaryEntry[]): GlossaryMatcher {
  const names = entries
    .flatMap((e) =>
      [e.term, ...e.aliases].map((name) => ({
        id: e.id,
        name,
        lower: name.toLowerCase(),
        exact: isCaseSensitive(name),
        // A capitalised name is a Kubernetes kind or a proper noun (Pod, Service, Ingress):
        // "ingress" in `status.loadBalancer.ingress` or "service" in prose is not the term.
        capital: /^[A-Z]/.test(name),
        // A lower-case name of several words: not inside a capitalised product name.
        multiWord: /\s/.test(name) && !isCaseSensitive(name) && !/^[A-Z]/.test(name),
      })),
    )
    .sort((a, b) => b.name.length - a.name.length || (a.name < b.name ? -1 : 1));
  const exactNames = new Map<string, string>();
  for (const e of entries)
    for (const name of [e.term, ...e.aliases])
      if (!exactNames.has(name)) exactNames.set(name, e.id);
  const any =
    names.length > 0 ? new RegExp(names.map((n) => escape(n.name)).join('|'), 'giu') : null;
  return {
    find(text) {
      const out: TermMatch[] = [];
      if (!any) return out;
      any.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = any.exec(text)) !== null) {
        const at = m.index;
        const hit = names.find((n) => {
          const end = at + n.name.length;
          const part = text.slice(at, end);
          const s = n.exact
            ? part === n.name
            : part.toLowerCase() === n.lower &&
              (!n.capital || part[0] === n.name[0]) &&
              !(n.multiWord && capitalisedLater(part));
          return s && !insideWord(text, at, end);
        });
        if (hit) {
          out.push({
            id: hit.id,
            index: at,
            length: hit.name.length,
            text: text.slice(at, at + hit.name.length),
          });
          any.lastIndex = at + hit.name.length;
        } else any.lastIndex = at + 1;
      }
      return out;
    },
    code(code) {
      const text = code.trim();
      return exactNames.get(text) ?? exactNames.get(text.replace(/^\.?spec\./, '') || text);
    },
  };
}
