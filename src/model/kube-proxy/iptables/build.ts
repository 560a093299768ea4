/** Small constructors for rule matches and targets, shared by the rule writers. */
import type { Match, Target } from './rule';

/** `-m comment --comment TEXT` */
export const comment = (text: string): Match => ({ kind: 'comment', text });

/** `-j CHAIN` */
export const jump = (chain: string): Target => ({ kind: 'jump', chain });
