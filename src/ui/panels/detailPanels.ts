/**
 * The step's detail panels that the first frame does not show (the packet, the rule and
 * decision, conntrack), in one chunk that `lazyPanels.tsx` loads after the first paint.
 */
export { ConntrackPanel } from './ConntrackPanel';
export { PacketInspector } from './PacketInspector';
export { RulePanel } from './RulePanel';
