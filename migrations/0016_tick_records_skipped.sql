ALTER TABLE "job_ticks" ADD COLUMN "records_skipped" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Ticks that ended before the column: their ended runs' dead letters, as a tick counts them.
UPDATE "job_ticks" t SET "records_skipped" = r.skipped
FROM (SELECT "tick_id", sum("records_skipped") AS skipped FROM "sync_runs"
  WHERE "tick_id" IS NOT NULL AND "records_skipped" > 0 AND "status" IN ('succeeded', 'partial', 'failed') GROUP BY "tick_id") r
WHERE t."id" = r."tick_id";
