/**
 * feedsync's tables, for Drizzle and drizzle-kit (drizzle.config.ts): each module holds the tables
 * of one concern.
 */
export * from './runTables.js';
export * from './pageTables.js';
export * from './recordTables.js';
export * from './noticeTables.js';
