/**
 * The "Copy embed code" snippets (issue 12, scope 3), as strings: an `<iframe>` of
 * `embed.html`, the optional host script that sizes it from the embed's `lb-datapath:resize`
 * messages, and the `<lb-datapath>` web component. Pure: no DOM, no store; the dialog
 * (EmbedCodeDialog.tsx) passes in the page's address, the share hash and the options.
 *
 * Every attribute value is HTML-escaped (`&`, `"`, `<`, `>`), so a scene description or an
 * address with any of them is still one attribute. The query options are those of
 * src/embed/options.ts.
 */
import type { SceneOptions } from '../../model/scenario/scene';
import type { EmbedControls, EmbedTheme } from '../../embed/options';

/** What the snippets are for: where the app lives, which scene, and the embed's options. */
export interface EmbedCodeInput {
  /** The app's directory URL, ending in `/` (e.g. `https://example.org/lb/`): see {@link appBaseUrl}. */
  base: string;
  /** The share hash (`#s=…`), or null for the default scene. */
  hash: string | null;
  /** The step shown on load, as the player's step buttons number it (0 = before the first step). */
  step: number;
  theme: EmbedTheme;
  controls: EmbedControls;
  autoplay: boolean;
  /** The iframe's accessible name after "LoadBalancer data path: " ({@link describeScene}). */
  description: string;
}

/**
 * The frame's height in CSS px before the host script (if any) sizes it, per `controls`. Measured
 * (headless Chromium, default scene, step 3): the embed reports 685 / 651 / 601 px (full /
 * minimal / none) in any frame 780–960 px wide, 657 / 623 / 573 at 1,200 px; below 780 px the
 * stage turns vertical and it needs about 1,150 px (720 wide). So these fit every column of
 * 780 px and up with a little room; a narrower column (or a larger cluster) scrolls inside the
 * frame until the host script sizes it from `lb-datapath:resize`.
 */
export const FRAME_HEIGHT: Record<EmbedControls, number> = {
  full: 700,
  minimal: 660,
  none: 610,
};

/** The title's fixed start: every embed's accessible name begins so. */
export const TITLE_PREFIX = 'LoadBalancer data path';

/** `text` safe inside a double-quoted HTML attribute (and as element text). */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * The directory the app is served from, as an absolute URL ending in `/`:
 * `{origin: 'https://x.org', pathname: '/lb/index.html'}` → `https://x.org/lb/`. `embed.html`
 * and `embed/lb-datapath.js` are built beside `index.html`, so the snippets work wherever the
 * app is hosted.
 */
export function appBaseUrl(location: { origin: string; pathname: string }): string {
  const dir = location.pathname.slice(0, location.pathname.lastIndexOf('/') + 1) || '/';
  return location.origin + dir;
}

/** `a`, `a and b`, `a, b and c`. */
function list(items: string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * A short description of what a scene shows, in the fields' own words, for the iframe's title:
 * always `externalTrafficPolicy`, then whatever differs from the default scene — e.g.
 * `externalTrafficPolicy Local, node-2 failed`, `externalTrafficPolicy Cluster, ipMode Proxy,
 * client pod, dialling node-1's NodePort` (plain ASCII, so a host page without a UTF-8
 * charset still reads it right). `imported` (the objects are not the canonical
 * scenario's) starts it with "your cluster".
 */
export function describeScene(scene: SceneOptions, imported: boolean): string {
  const parts: string[] = [];
  if (imported) parts.push('your cluster');
  if (scene.service) parts.push(`Service ${scene.service}`);
  parts.push(`externalTrafficPolicy ${scene.externalTrafficPolicy}`);
  if (scene.ipMode !== 'VIP') parts.push(`ipMode ${scene.ipMode}`);
  else if (scene.delivery === 'LoadBalancerIP' && (scene.implementation ?? 'NAT') === 'NAT')
    parts.push('balancer keeps the VIP destination');
  if (scene.implementation === 'DirectServerReturn') parts.push('direct server return');
  else if (scene.implementation === 'MetalLB-L2') parts.push('MetalLB layer 2');
  else if (scene.implementation === 'MetalLB-BGP') parts.push('MetalLB BGP');
  if (!scene.published) parts.push('EXTERNAL-IP <pending>');
  if (scene.proxyMode) parts.push(`kube-proxy ${scene.proxyMode}`);
  const failed = scene.failedNodes;
  if (failed.length > 3) parts.push(`${failed.length} nodes failed`);
  else if (failed.length > 0) parts.push(`${list(failed)} failed`);
  if (scene.client !== 'internet') parts.push(`client ${scene.client}`);
  if (scene.dial.kind === 'NodePort') parts.push(`dialling ${scene.dial.nodeName}'s NodePort`);
  else if (scene.dial.kind === 'ClusterIP') parts.push('dialling the ClusterIP');
  return parts.join(', ');
}

/** The query string of `embed.html` for `input`: `step`, `theme`, `controls`, then `autoplay=1` when on. */
function query(input: EmbedCodeInput): string {
  const q = new URLSearchParams({
    step: String(input.step),
    theme: input.theme,
    controls: input.controls,
  });
  if (input.autoplay) q.set('autoplay', '1');
  return q.toString();
}

/** The embed's address: `<base>embed.html?step=N&theme=…&controls=…[&autoplay=1][#s=…]`. */
export function embedUrl(input: EmbedCodeInput): string {
  return `${input.base}embed.html?${query(input)}${input.hash ?? ''}`;
}

/** The iframe's accessible name: `LoadBalancer data path: <description>`. */
export function frameTitle(input: EmbedCodeInput): string {
  return input.description ? `${TITLE_PREFIX}: ${input.description}` : TITLE_PREFIX;
}

/**
 * The `<iframe>` snippet: one element, attributes one per line, its `height` the
 * {@link FRAME_HEIGHT} for its controls. The `lb-datapath` class is what {@link resizeScript}
 * looks for.
 */
export function iframeSnippet(input: EmbedCodeInput): string {
  const attrs: [string, string][] = [
    ['class', 'lb-datapath'],
    ['src', embedUrl(input)],
    ['title', frameTitle(input)],
    ['width', '100%'],
    ['height', String(FRAME_HEIGHT[input.controls])],
    ['loading', 'lazy'],
    ['allow', 'fullscreen'],
    ['style', 'border:0'],
  ];
  return `<iframe\n${attrs.map(([k, v]) => `  ${k}="${escapeHtml(v)}"`).join('\n')}\n></iframe>`;
}

/**
 * The optional host script: sets each `iframe.lb-datapath`'s height to the one its embed
 * reports. It believes a message only from the app's origin (`new URL(base).origin`) and only
 * from that frame's own window, so several embeds on a page each get their own height.
 */
export function resizeScript(base: string): string {
  const origin = JSON.stringify(new URL(base).origin);
  return [
    '<script>',
    "  addEventListener('message', (e) => {",
    `    if (e.origin !== ${origin} || e.data?.type !== 'lb-datapath:resize') return;`,
    "    for (const frame of document.querySelectorAll('iframe.lb-datapath'))",
    "      if (e.source === frame.contentWindow) frame.style.height = e.data.height + 'px';",
    '  });',
    '</script>',
  ].join('\n');
}

/** The element's fallback link text (shown only where the element does not load). */
export const FALLBACK_TEXT = 'Open this scene in the LoadBalancer data path visualiser';

/** The web component's module: `<base>embed/lb-datapath.js`. */
export function elementScriptUrl(base: string): string {
  return `${base}embed/lb-datapath.js`;
}

/**
 * The web-component snippet: the module script, then `<lb-datapath>` with `state` (the hash,
 * or empty for the default scene), `step`, `theme`, `controls` and `autoplay="1"` when on, and
 * inside it a link to the scene in the full app: shown only where the element never loads (its
 * module blocked, e.g. served without CORS to another origin, or scripts off) — once it mounts,
 * its shadow root hides it.
 */
export function elementSnippet(input: EmbedCodeInput): string {
  const attrs: [string, string][] = [
    ['state', input.hash ?? ''],
    ['step', String(input.step)],
    ['theme', input.theme],
    ['controls', input.controls],
  ];
  if (input.autoplay) attrs.push(['autoplay', '1']);
  return [
    `<script type="module" src="${escapeHtml(elementScriptUrl(input.base))}"></script>`,
    `<lb-datapath ${attrs.map(([k, v]) => `${k}="${escapeHtml(v)}"`).join(' ')}>` +
      `<a href="${escapeHtml(`${input.base}${input.hash ?? ''}`)}">${FALLBACK_TEXT}</a></lb-datapath>`,
  ].join('\n');
}
