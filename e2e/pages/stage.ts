import type { Locator, Page } from '@playwright/test';

/** A text's rendered box, CSS px. */
export interface TextBox {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  size: number;
}

/** The stage (the topology drawing) as a person sees it: its texts, its legend, its buttons. */
export class StagePage {
  readonly svg: Locator;
  readonly legend: Locator;
  readonly fold: Locator;

  constructor(
    readonly page: Page,
    scope: Locator | Page = page,
  ) {
    this.svg = scope.getByTestId('topology').first();
    this.legend = scope.getByTestId('legend').first();
    this.fold = scope.getByTestId('fold').first();
  }

  /** Every `<text>` of the stage with its client-rect box and computed font size. */
  texts(): Promise<TextBox[]> {
    return this.svg.evaluate((svg) =>
      [...svg.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() !== '')
        .map((t) => {
          const r = t.getBoundingClientRect();
          return {
            text: t.textContent ?? '',
            x: r.x,
            y: r.y,
            w: r.width,
            h: r.height,
            size: parseFloat(getComputedStyle(t).fontSize),
          };
        }),
    );
  }

  /**
   * Like {@link texts}, with `size` the font size as drawn on screen: the computed size times
   * the SVG's scale to the screen (present mode draws the scene through a scaled viewBox).
   */
  screenTexts(): Promise<TextBox[]> {
    return this.svg.evaluate((svg) =>
      [...svg.querySelectorAll('text')]
        .filter((t) => (t.textContent ?? '').trim() !== '')
        .map((t) => {
          const r = t.getBoundingClientRect();
          const m = t.getScreenCTM();
          const scale = m ? Math.hypot(m.a, m.b) : 1;
          return {
            text: t.textContent ?? '',
            x: r.x,
            y: r.y,
            w: r.width,
            h: r.height,
            size: parseFloat(getComputedStyle(t).fontSize) * scale,
          };
        }),
    );
  }

  /** The SVG's own client rect. */
  box(): Promise<{ x: number; y: number; w: number; h: number }> {
    return this.svg.evaluate((svg) => {
      const r = svg.getBoundingClientRect();
      return { x: r.x, y: r.y, w: r.width, h: r.height };
    });
  }
}

/** Pairs of texts whose boxes overlap (by more than half a pixel each way). */
export function overlaps(texts: TextBox[]): [TextBox, TextBox][] {
  const out: [TextBox, TextBox][] = [];
  const e = 0.5;
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i]!;
      const b = texts[j]!;
      if (a.x + e < b.x + b.w && b.x + e < a.x + a.w && a.y + e < b.y + b.h && b.y + e < a.y + a.h)
        out.push([a, b]);
    }
  return out;
}
