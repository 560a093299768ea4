/**
 * The packet's animated parts (see motionFeatures.ts): framer-motion's `m` elements with its
 * DOM animation features, and `MotionConfig reducedMotion="user"`. Loaded after first paint.
 */
import { LazyMotion, MotionConfig, domAnimation, m } from 'framer-motion';
import type { ReactNode } from 'react';
import type { MotionParts } from './motionFeatures';

function Root({ children }: { children: ReactNode }) {
  return (
    <LazyMotion features={domAnimation} strict>
      <MotionConfig reducedMotion="user">{children}</MotionConfig>
    </LazyMotion>
  );
}

const parts: MotionParts = { Root, G: m.g, Line: m.line, animated: true };

export default parts;
