/**
 * Links inside the tutorial: the URL fragment of a route. Kept apart from route.ts (which is in
 * the initial bundle) because only the reader, loaded on demand, makes links.
 */
import { LEARN_PREFIX } from './route';
import type { LearnRoute } from './route';

/** The URL fragment of a route (the inverse of {@link parseLearnHash}). */
export function learnHash(route: LearnRoute): string {
  const enc = encodeURIComponent;
  switch (route.kind) {
    case 'home':
      return LEARN_PREFIX;
    case 'glossary':
      return `${LEARN_PREFIX}/glossary${route.term ? `/${enc(route.term)}` : ''}`;
    case 'chapter':
      return `${LEARN_PREFIX}/${enc(route.slug)}${route.section ? `/${enc(route.section)}` : ''}`;
  }
}
