/**
 * framer-motion's animation features, loaded after the first paint: `LazyMotion` accepts a
 * function returning them, so the feature code stays out of the initial bundle
 * (https://motion.dev/docs/react-lazy-motion). Until they arrive the packet marker is drawn
 * in place without tweening, which is also what reduced motion does.
 */
export const loadMotionFeatures = () => import('./motionFeaturesBundle').then((m) => m.default);
