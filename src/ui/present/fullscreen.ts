/**
 * Fullscreen for present mode, with the fallback the issue asks for: where the Fullscreen API
 * is missing or refuses (iOS Safari for anything but video; a request without a user gesture,
 * e.g. a page opened at `?present=1`), present mode still fills the window (its CSS), and says
 * "F: full screen" in its bar.
 */

/** Whether the page is in fullscreen now. */
export function isFullscreen(doc: Document = document): boolean {
  return doc.fullscreenElement != null;
}

/**
 * Asks for fullscreen on `el`. Resolves to true when granted, false when refused or missing
 * (never rejects).
 */
export async function enterFullscreen(el: Element): Promise<boolean> {
  if (typeof el.requestFullscreen !== 'function') return false;
  try {
    await el.requestFullscreen({ navigationUI: 'hide' });
    return true;
  } catch {
    return false;
  }
}

/** Leaves fullscreen if the page is in it (never rejects). */
export async function exitFullscreen(doc: Document = document): Promise<void> {
  if (!isFullscreen(doc) || typeof doc.exitFullscreen !== 'function') return;
  try {
    await doc.exitFullscreen();
  } catch {
    // Already left (the person pressed Esc): nothing to do.
  }
}
