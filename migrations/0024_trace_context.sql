ALTER TABLE "job_ticks" ADD COLUMN "traceparent" text;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "trace_id" text;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "traceparent" text;