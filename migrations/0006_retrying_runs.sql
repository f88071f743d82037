ALTER TABLE "sync_runs" DROP CONSTRAINT "sync_runs_status_check";--> statement-breakpoint
DROP INDEX "sync_runs_unfinished_idx";--> statement-breakpoint
CREATE INDEX "sync_runs_unfinished_updated_idx" ON "sync_runs" USING btree ("updated_at") WHERE "sync_runs"."status" in ('running', 'interrupted', 'retrying');--> statement-breakpoint
CREATE INDEX "sync_runs_unfinished_idx" ON "sync_runs" USING btree ("job","query_index") WHERE "sync_runs"."status" in ('running', 'interrupted', 'retrying');--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_status_check" CHECK ("sync_runs"."status" in ('running', 'interrupted', 'retrying', 'succeeded', 'failed'));