/**
 * Does nothing: `npm run bench` times this script through the same runner as the CLI
 * (`tsx`), so that "process start" in the CLI figure is the runner's own cost.
 */
export {};
