/**
 * Present mode's keys, as data: what each key does, and the help overlay (`?`) lists them from
 * here. Clickers send PageDown/PageUp (most), →/← or Space, and `B` or `.` for their "blank"
 * button (reveal.js's conventions, /work/shared/reference/embed-present.md §3c).
 */

export type PresentAction =
  | { kind: 'next' }
  | { kind: 'prev' }
  | { kind: 'first' }
  | { kind: 'last' }
  | { kind: 'digit'; digit: number }
  | { kind: 'blank' }
  | { kind: 'help' }
  | { kind: 'laser' }
  | { kind: 'fullscreen' }
  | { kind: 'notes' }
  | { kind: 'leave' };

/** One row of the help overlay. */
export interface KeyHelp {
  keys: string[];
  does: string;
}

/** The help overlay's rows, in the order shown. */
export const PRESENT_KEYS: readonly KeyHelp[] = [
  { keys: ['Page Down', 'Space', '→'], does: 'next beat' },
  { keys: ['Page Up', '←'], does: 'previous beat' },
  { keys: ['Home', 'End'], does: 'first / last beat' },
  { keys: ['0–9'], does: 'jump to beat N (type two digits quickly for 10 and up)' },
  { keys: ['B', '.'], does: 'blank the screen (again to return)' },
  { keys: ['L'], does: 'laser pointer (a fading trail that follows the mouse)' },
  { keys: ['F'], does: 'full screen on / off' },
  { keys: ['N'], does: 'speaker notes in a second window' },
  { keys: ['?'], does: 'show / hide these keys' },
  { keys: ['Esc'], does: 'close this help, leave full screen, then leave present mode' },
  {
    keys: ['Space'],
    does: 'Time & failures view: play / pause the clock (its beats are its events; the other keys as above)',
  },
];

/** The action for `KeyboardEvent.key`, or null (the key is not present mode's). */
export function presentActionFor(key: string): PresentAction | null {
  switch (key) {
    case 'PageDown':
    case ' ':
    case 'ArrowRight':
      return { kind: 'next' };
    case 'PageUp':
    case 'ArrowLeft':
      return { kind: 'prev' };
    case 'Home':
      return { kind: 'first' };
    case 'End':
      return { kind: 'last' };
    case 'b':
    case 'B':
    case '.':
      return { kind: 'blank' };
    case '?':
      return { kind: 'help' };
    case 'l':
    case 'L':
      return { kind: 'laser' };
    case 'f':
    case 'F':
      return { kind: 'fullscreen' };
    case 'n':
    case 'N':
      return { kind: 'notes' };
    case 'Escape':
      return { kind: 'leave' };
    default:
      return /^[0-9]$/.test(key) ? { kind: 'digit', digit: Number(key) } : null;
  }
}

/** How long two digits typed one after the other make one number, ms. */
export const DIGIT_WINDOW_MS = 1000;

/**
 * The beat a digit jumps to: appended to the previous digit when it came within
 * {@link DIGIT_WINDOW_MS} and the number still names a beat, else the digit alone.
 * @returns the new buffer (the number typed) — the caller clamps it to the beats.
 */
export function typeDigit(
  buffer: { value: number; at: number } | null,
  digit: number,
  now: number,
  beats: number,
): { value: number; at: number } {
  if (buffer && now - buffer.at <= DIGIT_WINDOW_MS) {
    const joined = buffer.value * 10 + digit;
    if (joined < beats) return { value: joined, at: now };
  }
  return { value: digit, at: now };
}
