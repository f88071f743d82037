CREATE TABLE "job_ticks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tick_key" text NOT NULL,
	"job" text NOT NULL,
	"trigger" text NOT NULL,
	"scheduled_for" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"runs_total" integer NOT NULL,
	"runs_done" integer DEFAULT 0 NOT NULL,
	"runs_succeeded" integer DEFAULT 0 NOT NULL,
	"runs_failed" integer DEFAULT 0 NOT NULL,
	"runs_skipped" integer DEFAULT 0 NOT NULL,
	"records_new" bigint DEFAULT 0 NOT NULL,
	"records_updated" bigint DEFAULT 0 NOT NULL,
	"records_unchanged" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "job_ticks_status_check" CHECK ("job_ticks"."status" in ('running', 'succeeded', 'partial', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "sync_runs" DROP CONSTRAINT "sync_runs_status_check";--> statement-breakpoint
DROP INDEX "sync_runs_unfinished_idx";--> statement-breakpoint
DROP INDEX "sync_runs_unfinished_updated_idx";--> statement-breakpoint
ALTER TABLE "notices" ALTER COLUMN "run_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "tick_id" uuid;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "tick_id" uuid;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "fan_value" text;--> statement-breakpoint
CREATE UNIQUE INDEX "job_ticks_tick_key_idx" ON "job_ticks" USING btree ("tick_key");--> statement-breakpoint
CREATE INDEX "job_ticks_job_started_idx" ON "job_ticks" USING btree ("job","started_at");--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_tick_id_job_ticks_id_fk" FOREIGN KEY ("tick_id") REFERENCES "public"."job_ticks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_tick_id_job_ticks_id_fk" FOREIGN KEY ("tick_id") REFERENCES "public"."job_ticks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notices_tick_idx" ON "notices" USING btree ("tick_id");--> statement-breakpoint
CREATE INDEX "sync_runs_unfinished_query_idx" ON "sync_runs" USING btree ("job","query_key") WHERE "sync_runs"."status" in ('queued', 'running', 'interrupted', 'retrying');--> statement-breakpoint
CREATE INDEX "sync_runs_tick_idx" ON "sync_runs" USING btree ("tick_id","status");--> statement-breakpoint
CREATE INDEX "sync_runs_unfinished_updated_idx" ON "sync_runs" USING btree ("updated_at") WHERE "sync_runs"."status" in ('queued', 'running', 'interrupted', 'retrying');--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_subject_check" CHECK (num_nonnulls("notices"."run_id", "notices"."tick_id") = 1);--> statement-breakpoint
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_status_check" CHECK ("sync_runs"."status" in ('queued', 'running', 'interrupted', 'retrying', 'succeeded', 'failed'));