import type { ReactNode, SVGProps } from 'react';
import type { TextSlot } from './text';
import { anchorX, baseline, fitText } from './text';

type Props = Omit<SVGProps<SVGTextElement>, 'x' | 'y' | 'slot'> & {
  /** The layout slot the line is drawn in. */
  at: TextSlot;
  /** The line; shortened in the middle with "…" until it fits the slot. */
  text: string;
  /** Shown as a tooltip (defaults to the full text when it had to be shortened). */
  tip?: string | undefined;
  children?: ReactNode;
};

/** One line of text drawn in its layout slot, never wider than the slot. */
export function SlotText({ at: slot, text, tip, className, children, ...rest }: Props) {
  const shown = fitText(text, slot);
  const title = tip ?? (shown !== text ? text : undefined);
  const cls = [className, slot.bold ? 'b' : '', slot.mono ? 'mono' : ''].filter(Boolean).join(' ');
  return (
    <text
      {...rest}
      className={cls || undefined}
      x={anchorX(slot)}
      y={baseline(slot)}
      fontSize={slot.size}
      textAnchor={slot.anchor ?? 'start'}
    >
      {title && <title>{title}</title>}
      {shown}
      {children}
    </text>
  );
}

/** A rect for a layout box. */
export function Rect({
  box,
  ...rest
}: { box: { x: number; y: number; w: number; h: number } } & Omit<
  SVGProps<SVGRectElement>,
  'x' | 'y' | 'width' | 'height'
>) {
  return (
    <rect {...rest} x={box.x} y={box.y} width={Math.max(0, box.w)} height={Math.max(0, box.h)} />
  );
}
