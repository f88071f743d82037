ALTER TABLE "envelopes" ADD COLUMN "latency_ms" integer;--> statement-breakpoint
CREATE INDEX "sync_runs_job_status_started_idx" ON "sync_runs" USING btree ("job","status","started_at");