-- Runs that ended before this migration were counted to their ticks with their finish: counted.
ALTER TABLE "sync_runs" ADD COLUMN "tick_counted" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ALTER COLUMN "tick_counted" SET DEFAULT false;--> statement-breakpoint
UPDATE "sync_runs" SET "tick_counted" = false WHERE "status" NOT IN ('succeeded', 'partial', 'failed');--> statement-breakpoint
CREATE INDEX "sync_runs_uncounted_idx" ON "sync_runs" USING btree ("tick_id") WHERE not "sync_runs"."tick_counted" and "sync_runs"."tick_id" is not null and "sync_runs"."status" in ('succeeded', 'partial', 'failed');
