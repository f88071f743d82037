CREATE TABLE "envelopes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"page_seq" integer NOT NULL,
	"request_url" text NOT NULL,
	"status" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb NOT NULL,
	"bytes" integer NOT NULL,
	"content_hash" text NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incremental_cursors" (
	"job" text NOT NULL,
	"query_key" text NOT NULL,
	"field" text NOT NULL,
	"value" text NOT NULL,
	"run_id" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "incremental_cursors_job_query_key_pk" PRIMARY KEY("job","query_key")
);
--> statement-breakpoint
CREATE TABLE "notice_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notice_id" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"http_status" integer,
	"latency_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "records" (
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"first_seen_run_id" uuid NOT NULL,
	"last_changed_run_id" uuid NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "records_source_kind_key_pk" PRIMARY KEY("source","kind","key")
);
--> statement-breakpoint
CREATE TABLE "sync_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_key" text NOT NULL,
	"job" text NOT NULL,
	"source" text NOT NULL,
	"query_index" integer NOT NULL,
	"query_key" text NOT NULL,
	"query" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"scheduled_for" timestamp with time zone,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"pages" integer DEFAULT 0 NOT NULL,
	"records_new" integer DEFAULT 0 NOT NULL,
	"records_updated" integer DEFAULT 0 NOT NULL,
	"records_unchanged" integer DEFAULT 0 NOT NULL,
	"checkpoint" jsonb,
	"cursor_value" text,
	"stop_reason" text,
	"error_kind" text,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_runs_status_check" CHECK ("sync_runs"."status" in ('running', 'succeeded', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_run_id_sync_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."sync_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice_attempts" ADD CONSTRAINT "notice_attempts_notice_id_notices_id_fk" FOREIGN KEY ("notice_id") REFERENCES "public"."notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_run_id_sync_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."sync_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "envelopes_run_page_idx" ON "envelopes" USING btree ("run_id","page_seq");--> statement-breakpoint
CREATE INDEX "notice_attempts_notice_idx" ON "notice_attempts" USING btree ("notice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notices_run_idx" ON "notices" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "notices_state_next_idx" ON "notices" USING btree ("state","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_runs_run_key_idx" ON "sync_runs" USING btree ("run_key");--> statement-breakpoint
CREATE INDEX "sync_runs_job_started_idx" ON "sync_runs" USING btree ("job","started_at");--> statement-breakpoint
CREATE VIEW "public"."artists" AS (select source, key, payload #>> '{name}' as name, payload #>> '{mbid}' as mbid, payload #>> '{url}' as url, case when payload #>> '{playcount}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{playcount}')::numeric end as playcount, case when payload #>> '{listeners}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{listeners}')::numeric end as listeners, payload -> 'tags' as tags, changed_at from "records" where kind = 'artist');--> statement-breakpoint
CREATE VIEW "public"."blocks" AS (select source, key, case when payload #>> '{number}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{number}')::numeric end as number, payload #>> '{hash}' as hash, payload #>> '{parentHash}' as parent_hash, case when payload #>> '{txCount}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{txCount}')::numeric end as tx_count, to_timestamp(case when payload #>> '{timestamp}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{timestamp}')::numeric end) as mined_at from "records" where kind = 'block');--> statement-breakpoint
CREATE VIEW "public"."contracts" AS (select source, key as address, payload #>> '{ContractName}' as contract_name, payload #>> '{CompilerVersion}' as compiler_version, payload #>> '{ABI}' as abi, payload #>> '{SourceCode}' as source_code, changed_at from "records" where kind = 'contract');--> statement-breakpoint
CREATE VIEW "public"."listens" AS (select source, key, case when position('|' in key) > 0 then split_part(key, '|', 1) end as username, payload #>> '{name}' as track, coalesce(payload #>> '{artist,name}', payload #>> '{artist}') as artist, coalesce(payload #>> '{album,name}', payload #>> '{album}') as album, to_timestamp(case when payload #>> '{uts}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{uts}')::numeric end) as played_at from "records" where kind = 'listen');--> statement-breakpoint
CREATE VIEW "public"."tracks" AS (select source, key, payload #>> '{name}' as name, coalesce(payload #>> '{artist,name}', payload #>> '{artist}') as artist, coalesce(payload #>> '{album,name}', payload #>> '{album}') as album, case when payload #>> '{duration}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{duration}')::numeric end as duration_s, case when payload #>> '{playcount}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{playcount}')::numeric end as playcount, case when payload #>> '{listeners}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{listeners}')::numeric end as listeners, payload #>> '{mbid}' as mbid, changed_at from "records" where kind = 'track');--> statement-breakpoint
CREATE VIEW "public"."transactions" AS (select source, key as hash, case when payload #>> '{blockNumber}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{blockNumber}')::numeric end as block_number, case when payload #>> '{transactionIndex}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{transactionIndex}')::numeric end as transaction_index, payload #>> '{from}' as from_address, payload #>> '{to}' as to_address, case when payload #>> '{value}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{value}')::numeric end as value_wei, case when payload #>> '{gas}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{gas}')::numeric end as gas, case when payload #>> '{gasPrice}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{gasPrice}')::numeric end as gas_price, payload #>> '{status}' as status, to_timestamp(case when payload #>> '{timeStamp}' ~ '^-?[0-9]+(\.[0-9]+)?$' then (payload #>> '{timeStamp}')::numeric end) as mined_at from "records" where kind = 'transaction');