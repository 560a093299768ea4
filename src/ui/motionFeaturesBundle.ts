/** The features `LazyMotion` loads on demand (see motionFeatures.ts). */
import { domAnimation } from 'framer-motion';

export default domAnimation;
