ALTER TABLE "sync_runs" DROP CONSTRAINT "sync_runs_status_check";--> statement-breakpoint
ALTER TABLE "job_ticks" ADD COLUMN "runs_partial" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_status_check" CHECK ("sync_runs"."status" in ('queued', 'running', 'interrupted', 'retrying', 'succeeded', 'partial', 'failed'));