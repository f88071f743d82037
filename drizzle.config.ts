import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // feedsync's tables, and the analyst views of the example config's record kinds.
  schema: ['./src/storage/schema.ts', './src/storage/exampleKindViews.ts'],
  out: './migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/feedsync' },
});
