/**
 * The embed's options, read from the query string of `embed.html?…` (or `index.html?embed=1&…`,
 * which redirects there). Pure: no DOM.
 *
 * | query          | values                      | default | meaning                                  |
 * | -------------- | --------------------------- | ------- | ---------------------------------------- |
 * | `theme`        | `light`, `dark`, `contrast`, `auto` | `auto` | `auto` follows `prefers-color-scheme`; `contrast`: projectors |
 * | `controls`     | `full`, `minimal`, `none`   | `full`  | the whole player, Previous/Play/Next, none|
 * | `step`         | 0 … the trace's step count  | 0       | the step shown on load (0 = before the first, as the player's step buttons number them) |
 * | `autoplay`     | `1` / `0`                   | `0`     | play on load (else paused)               |
 * | `origin`       | origins, comma-separated    | any     | only these may drive it by postMessage   |
 *
 * A value that cannot be read is not fatal: the default is used and {@link EmbedOptionsResult}
 * says so in a sentence naming the parameter, shown in the embed.
 */

export type EmbedTheme = 'light' | 'dark' | 'contrast' | 'auto';
export type EmbedControls = 'full' | 'minimal' | 'none';

/** The embed's options (see the module comment for the query string). */
export interface EmbedOptions {
  theme: EmbedTheme;
  controls: EmbedControls;
  /** The step to show on load, 0-based as the player's step buttons (0 = before the first step); null = the link's own step. */
  step: number | null;
  autoplay: boolean;
  /**
   * Origins (`scheme://host[:port]`) allowed to send commands, and the only ones messages are
   * posted to; null = any parent (no `origin=` given). Empty when `origin=` named none that
   * could be read: then nobody may drive it.
   */
  origins: string[] | null;
}

export interface EmbedOptionsResult {
  options: EmbedOptions;
  /** One sentence per parameter that was ignored, e.g. `theme=blue is not light, dark, contrast or auto: using auto.` */
  problems: string[];
}

export const DEFAULT_EMBED_OPTIONS: EmbedOptions = Object.freeze({
  theme: 'auto',
  controls: 'full',
  step: null,
  autoplay: false,
  origins: null,
}) as EmbedOptions;

/** Whether `search` (e.g. `?embed=1&theme=dark`) asks the app for its embed view. */
export function wantsEmbed(search: string): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

function oneOf<T extends string>(
  params: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback: T,
  problems: string[],
): T {
  const v = params.get(name);
  if (v === null) return fallback;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  problems.push(
    `${name}=${v} is not ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}: using ${fallback}.`,
  );
  return fallback;
}

/**
 * The origin of `text` (`https://docs.example.com`), or null when it is not an http(s) origin.
 * A trailing slash or path is refused rather than cut: an origin is compared exactly.
 */
export function readOrigin(text: string): string | null {
  try {
    const u = new URL(text);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return null;
    return u.origin === text ? u.origin : null;
  } catch {
    return null;
  }
}

/** Reads the embed's options from `search`; never throws. */
export function parseEmbedOptions(search: string): EmbedOptionsResult {
  const params = new URLSearchParams(search);
  const problems: string[] = [];
  const theme = oneOf(
    params,
    'theme',
    ['light', 'dark', 'contrast', 'auto'] as const,
    'auto',
    problems,
  );
  const controls = oneOf(
    params,
    'controls',
    ['full', 'minimal', 'none'] as const,
    'full',
    problems,
  );
  let step: number | null = null;
  const stepText = params.get('step');
  if (stepText !== null) {
    if (/^\d{1,4}$/.test(stepText)) step = Number(stepText);
    else
      problems.push(`step=${stepText} is not a step number (0, 1, 2, …): showing the link's step.`);
  }
  const autoText = params.get('autoplay');
  if (autoText !== null && autoText !== '0' && autoText !== '1')
    problems.push(`autoplay=${autoText} is not 1 or 0: paused.`);
  const originText = params.get('origin');
  const origins: string[] | null = originText === null ? null : [];
  for (const part of (originText ?? '').split(',')) {
    const text = part.trim();
    if (!text) continue;
    const o = readOrigin(text);
    if (o) origins?.push(o);
    else
      problems.push(`origin=${text} is not an origin such as https://docs.example.com: ignored.`);
  }
  if (origins !== null && origins.length === 0)
    // Given, but none readable: nobody may drive it (not everybody), and nobody hears it.
    problems.push(
      'No origin in origin= could be read: no page may drive this embed or hear its messages.',
    );
  return {
    options: {
      theme,
      controls,
      step,
      autoplay: autoText === '1',
      // A list that was given but is all wrong does not fall back to "anyone".
      origins,
    },
    problems,
  };
}
