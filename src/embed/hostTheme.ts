/**
 * The host page's theme, for an `<lb-datapath>` element left on `theme="auto"`: docs sites set
 * it on an attribute rather than (only) following the system.
 * - Docusaurus and the PyData Sphinx theme: `<html data-theme="light|dark">`;
 * - MkDocs Material: `<body data-md-color-scheme="default|slate">` (slate is its dark scheme);
 * - Furo (Sphinx): `<body data-theme="light|dark|auto">`.
 * Sources: /work/shared/reference/embed-present.md §3a (each generator's theme hook).
 */

/** The attributes {@link hostTheme} reads, to watch for changes (a theme toggle on the host). */
export const HOST_THEME_ATTRIBUTES = ['data-theme', 'data-md-color-scheme'];

/** The part of a document read here. */
export interface ThemedDocument {
  documentElement: { getAttribute(name: string): string | null } | null;
  body: { getAttribute(name: string): string | null } | null;
}

/** `light` or `dark` when the host page says so, else null (follow `prefers-color-scheme`). */
export function hostTheme(doc: ThemedDocument): 'light' | 'dark' | null {
  const html = doc.documentElement?.getAttribute('data-theme');
  if (html === 'light' || html === 'dark') return html;
  const md = doc.body?.getAttribute('data-md-color-scheme');
  if (md === 'slate') return 'dark';
  if (md === 'default') return 'light';
  const body = doc.body?.getAttribute('data-theme');
  if (body === 'light' || body === 'dark') return body;
  return null;
}
