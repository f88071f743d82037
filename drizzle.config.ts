import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // feedsync's tables; the analysts' views come from the config's kinds (src/analytics).
  schema: './src/storage/tables/schema.ts',
  out: './migrations',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/feedsync' },
});
