/**
 * `<lb-datapath>`: the embed as a custom element, for docs pages that would rather not frame it
 * (scripts/embedElement.ts builds this file alone into `embed/lb-datapath.js`, one ES module
 * with its styles inside).
 *
 *   <script type="module" src="https://HOST/embed/lb-datapath.js"></script>
 *   <lb-datapath state="#s=…" step="3" theme="auto" controls="full"></lb-datapath>
 *
 * Attributes: `state` (a share hash, `#s=…`, as in the app's URL; empty: the default scene),
 * `step`, `theme`, `controls`, `autoplay` (as the iframe's query options, ./options.ts), and
 * `label`, its accessible name (default "LoadBalancer data path, embedded", numbered from the
 * page's second element on, so each landmark's name is unique).
 * Methods: `goTo(step)`, `play()`, `pause()`, `set(toggle, value, node?)` (./protocol.ts's
 * commands). Events (bubbling, composed `CustomEvent`s): `lb-datapath:ready` and
 * `lb-datapath:step` with `{ step, steps, playing }` in `detail`, `lb-datapath:error` with
 * `{ message }`.
 *
 * `theme="auto"` (the default) follows the host page's theme attribute when it has one
 * (Docusaurus, MkDocs Material, Furo: ./hostTheme.ts), live, else `prefers-color-scheme`. It
 * pauses when scrolled out of view.
 *
 * Each element is its own React root with its own store, in its own shadow root (its styles
 * cannot leak out, the host's cannot leak in; ids are prefixed per element). It mounts when it
 * first comes near the viewport, or before the page is printed (so a printout shows a frame,
 * not an empty box). Keys work while focus is inside it; the keys it uses stop there, the rest
 * go on to the host page (a slide deck keeps its keys).
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { StoreProvider } from '../store';
import type { AppStore } from '../store';
import { setDefaultEngine } from '../store/engine';
import { firstAnswer } from '../store/firstAnswer';
import { createWorkerEngine } from '../worker/client';
import { EmbedView } from './EmbedView';
import { bootEmbed } from './bootEmbed';
import { parseEmbedOptions } from './options';
import { applyHostMessage, stepReporter, whereNow } from './protocol';
import { HOST_THEME_ATTRIBUTES, hostTheme } from './hostTheme';
import type { EmbedOptions } from './options';

/** Replaced by the build with the embed's whole stylesheet (scripts/embedElement.ts). */
const STYLES = '__LB_DATAPATH_CSS__';

/** How far outside the viewport an element starts mounting (CSS margin). */
const MOUNT_MARGIN = '200px';

/** The attributes, and the query option each one stands for. */
const ATTRIBUTES = ['state', 'step', 'theme', 'controls', 'autoplay', 'label'] as const;

let elements = 0;

/** The full app beside this file (`…/embed/lb-datapath.js` → `…/`), with a share hash. */
function fullAppHref(hash: string | null): string {
  return new URL(`../${hash ?? ''}`, import.meta.url).href;
}

/** The element's attributes as the iframe's query string. */
function searchOf(el: HTMLElement): string {
  const params = new URLSearchParams();
  for (const name of ATTRIBUTES) {
    if (name === 'state' || name === 'label') continue;
    const v = el.getAttribute(name);
    if (v !== null) params.set(name, name === 'autoplay' && v === '' ? '1' : v);
  }
  return `?${params.toString()}`;
}

/** `css` as a constructed stylesheet, or undefined where the browser cannot build one. */
function constructedSheet(css: string): CSSStyleSheet | undefined {
  try {
    if (typeof CSSStyleSheet === 'undefined' || !('replaceSync' in CSSStyleSheet.prototype))
      return undefined;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    return sheet;
  } catch {
    return undefined;
  }
}

export class LbDatapathElement extends HTMLElement {
  static observedAttributes = [...ATTRIBUTES];

  readonly #id = ++elements;
  #root: Root | null = null;
  #store: AppStore | null = null;
  #observer: IntersectionObserver | null = null;
  #container: HTMLDivElement | null = null;
  #themeWatch: MutationObserver | null = null;
  /** What the mounted view shows (re-rendered when the host's theme changes). */
  #view: { options: EmbedOptions; problems: string[] } | null = null;
  #onPrint = () => this.#mount();
  #ready = false;
  #sendStep: () => void = () => {};

  connectedCallback(): void {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: 'open' });
      // A constructed stylesheet where the browser has them: a strict host CSP
      // (`style-src 'self'`) blocks a <style> element but does not govern adopted sheets.
      const sheet = constructedSheet(STYLES);
      if (sheet) shadow.adoptedStyleSheets = [sheet];
      this.#container = document.createElement('div');
      // Until it mounts (it waits to be scrolled near), a line of text holds its place: a page
      // printed before then shows what belongs here, not an empty box.
      const waiting = document.createElement('p');
      waiting.className = 'embed-waiting';
      waiting.textContent =
        'LoadBalancer data path: an interactive drawing of this scene loads here.';
      this.#container.append(waiting);
      if (sheet) shadow.append(this.#container);
      else {
        const style = document.createElement('style');
        style.textContent = STYLES;
        shadow.append(style, this.#container);
      }
    }
    window.addEventListener('beforeprint', this.#onPrint);
    if (typeof IntersectionObserver !== 'function') return this.#mount();
    this.#observer = new IntersectionObserver(
      (entries) => {
        // Mounted when it comes near; paused when it leaves (nobody watches it play).
        if (entries.some((e) => e.isIntersecting)) this.#mount();
        else this.#store?.getState().setPlaying(false);
      },
      { rootMargin: MOUNT_MARGIN },
    );
    this.#observer.observe(this);
  }

  disconnectedCallback(): void {
    window.removeEventListener('beforeprint', this.#onPrint);
    this.#observer?.disconnect();
    this.#observer = null;
    this.#themeWatch?.disconnect();
    this.#themeWatch = null;
    this.#root?.unmount();
    this.#root = null;
    this.#store = null;
  }

  attributeChangedCallback(): void {
    // A new scene or option: a new view (only once mounted; before, the mount reads them).
    if (!this.#root) return;
    this.#root.unmount();
    this.#root = null;
    this.#themeWatch?.disconnect();
    this.#mount();
  }

  /** Goes to step `step` (0 = before the first step). */
  goTo(step: number): void {
    this.#command({ type: 'lb-datapath:goTo', step });
  }

  play(): void {
    this.#command({ type: 'lb-datapath:play' });
  }

  pause(): void {
    this.#command({ type: 'lb-datapath:pause' });
  }

  /** Sets a toggle: `externalTrafficPolicy`, `ipMode`, `proxyMode`, `published` or `nodeFailed` (with `node`). */
  set(toggle: string, value: unknown, node?: string): void {
    this.#command({ type: 'lb-datapath:set', toggle, value, ...(node ? { node } : {}) });
  }

  #render(): void {
    const root = this.#root;
    const store = this.#store;
    const view = this.#view;
    if (!root || !store || !view) return;
    const theme =
      view.options.theme === 'auto' ? (hostTheme(document) ?? 'auto') : view.options.theme;
    root.render(
      <StrictMode>
        <StoreProvider store={store}>
          <EmbedView
            options={{ ...view.options, theme }}
            problems={view.problems}
            fullAppHref={fullAppHref}
            keyScope="element"
            ownPage={false}
            label={
              this.getAttribute('label') ??
              `LoadBalancer data path, embedded${this.#id > 1 ? ` (${this.#id})` : ''}`
            }
            onMounted={() => {
              this.#emit('lb-datapath:ready', whereNow(store));
              this.#ready = true;
              this.#sendStep();
            }}
          />
        </StoreProvider>
      </StrictMode>,
    );
  }

  #command(message: Record<string, unknown>): void {
    if (!this.#store) return this.#emit('lb-datapath:error', { message: 'not mounted yet' });
    const error = applyHostMessage(this.#store, message);
    if (error) this.#emit('lb-datapath:error', { message: error });
  }

  #emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #mount(): void {
    if (this.#root || !this.#container || !this.isConnected) return;
    const { options, problems } = parseEmbedOptions(searchOf(this));
    this.#ready = false;
    const start = bootEmbed(this.getAttribute('state') ?? '', options);
    const store = start.store;
    this.#store = store;
    const all = start.problem ? [start.problem, ...problems] : problems;
    const root = createRoot(this.#container, { identifierPrefix: `lbd${this.#id}-` });
    this.#root = root;
    // Step events start after `ready`, as the iframe's messages do.
    const report = stepReporter(store, (e) => this.#emit('lb-datapath:step', e));
    this.#sendStep = () => {
      if (this.#store === store && this.#ready) report();
    };
    store.subscribe(() => this.#sendStep());
    this.#view = { options, problems: all };
    void firstAnswer(store, 1000).then(() => {
      if (this.#root !== root) return;
      this.#render();
      if (options.theme !== 'auto') return;
      // theme="auto" follows the host page's own theme switch, live (./hostTheme.ts).
      this.#themeWatch?.disconnect();
      this.#themeWatch = new MutationObserver(() => this.#render());
      for (const el of [document.documentElement, document.body])
        if (el) this.#themeWatch.observe(el, { attributeFilter: HOST_THEME_ATTRIBUTES });
    });
  }
}

// The model answers in this thread (./noWorker.ts); one engine for every element on the page.
setDefaultEngine(createWorkerEngine());
if (!customElements.get('lb-datapath')) customElements.define('lb-datapath', LbDatapathElement);
