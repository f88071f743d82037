CREATE SEQUENCE "public"."records_change_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "full_refresh_keys" (
	"scope" text NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"run_id" uuid NOT NULL,
	CONSTRAINT "full_refresh_keys_scope_source_kind_key_pk" PRIMARY KEY("scope","source","kind","key")
);
--> statement-breakpoint
CREATE TABLE "record_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"change_seq" bigint NOT NULL,
	"run_id" uuid NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_to" timestamp with time zone
);
--> statement-breakpoint
DROP VIEW IF EXISTS "public"."artists";--> statement-breakpoint
DROP VIEW IF EXISTS "public"."blocks";--> statement-breakpoint
DROP VIEW IF EXISTS "public"."contracts";--> statement-breakpoint
DROP VIEW IF EXISTS "public"."listens";--> statement-breakpoint
DROP VIEW IF EXISTS "public"."tracks";--> statement-breakpoint
DROP VIEW IF EXISTS "public"."transactions";--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "change_seq" bigint DEFAULT nextval('records_change_seq') NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_runs" ADD COLUMN "records_deleted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "record_versions_current_idx" ON "record_versions" USING btree ("source","kind","key") WHERE "record_versions"."valid_to" is null;--> statement-breakpoint
CREATE INDEX "record_versions_kind_key_idx" ON "record_versions" USING btree ("kind","key","valid_from");--> statement-breakpoint
CREATE INDEX "records_kind_change_seq_idx" ON "records" USING btree ("kind","change_seq");--> statement-breakpoint
-- The kinds' views cast timestamps and dates written as text: a value that is no valid one gives
-- NULL in its row rather than failing the view (pg_input_is_valid is Postgres 16 and later).
CREATE OR REPLACE FUNCTION feedsync_try_timestamptz(value text) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  IF value IS NULL OR value !~ '^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}' THEN RETURN NULL; END IF;
  RETURN value::timestamptz;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION feedsync_try_date(value text) RETURNS date
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  IF value IS NULL OR value !~ '^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}' THEN RETURN NULL; END IF;
  RETURN value::date;
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;
