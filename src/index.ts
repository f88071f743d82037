/** The package's public API: typed config for `feedsync.config.ts` files. */
export { defineConfig } from './config/loading/loadConfig.js';
export type { ConfigInput } from './config/schema.js';
