CREATE TABLE "composite_key_rekeys" (
	"source" text NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "composite_key_rekeys_source_kind_pk" PRIMARY KEY("source","kind")
);
--> statement-breakpoint
-- The change-feed lock (CHANGE_SEQ_LOCK): the change_seq values drawn below commit in the order drawn, as every writer's do.
SELECT pg_advisory_xact_lock(7346112004);
--> statement-breakpoint
-- A key longer than 1,024 bytes is stored as sha256:<hex of its UTF-8> from now on (storedKey): one stored before as written moves
-- to that form with a new change_seq, leaving a deletion at its old key, as a rekey does; one whose digest form is stored already is
-- only marked deleted.
WITH "long" AS (
  SELECT "source", "kind", "key" AS "old_key", 'sha256:' || encode(sha256(convert_to("key", 'UTF8')), 'hex') AS "new_key"
  FROM "records" WHERE octet_length("key") > 1024
),
"pairs" AS (
  SELECT l.*, EXISTS (SELECT 1 FROM "records" x WHERE x."key" = l."new_key" AND x."source" = l."source" AND x."kind" = l."kind") AS "taken" FROM "long" l
),
"moved" AS (
  UPDATE "records" r SET "key" = p."new_key", "change_seq" = nextval('records_change_seq')
  FROM "pairs" p WHERE NOT p."taken" AND r."key" = p."old_key" AND r."source" = p."source" AND r."kind" = p."kind"
  RETURNING p."old_key", r."source", r."kind", r."payload", r."content_hash", r."first_seen_run_id", r."last_changed_run_id", r."first_seen_at", r."changed_at", r."deleted_at"
),
"superseded" AS (
  UPDATE "records" r SET "deleted_at" = now(), "change_seq" = nextval('records_change_seq')
  FROM "pairs" p WHERE p."taken" AND r."key" = p."old_key" AND r."source" = p."source" AND r."kind" = p."kind" AND r."deleted_at" IS NULL
)
INSERT INTO "records" ("source", "kind", "key", "payload", "content_hash", "first_seen_run_id", "last_changed_run_id", "first_seen_at", "changed_at", "deleted_at")
SELECT "source", "kind", "old_key", "payload", "content_hash", "first_seen_run_id", "last_changed_run_id", "first_seen_at", "changed_at", coalesce("deleted_at", now()) FROM "moved";
--> statement-breakpoint
UPDATE "record_versions" SET "key" = 'sha256:' || encode(sha256(convert_to("key", 'UTF8')), 'hex') WHERE octet_length("key") > 1024;
--> statement-breakpoint
UPDATE "full_refresh_keys" SET "key" = 'sha256:' || encode(sha256(convert_to("key", 'UTF8')), 'hex') WHERE octet_length("key") > 1024;
--> statement-breakpoint
-- Composite keys escape a "|" or "\" within a part from now on (joinKeyParts): a key holding one, or a long key's digest (which
-- digested the parts plainly joined), may be written otherwise now. A starting worker rekeys these pairs by its config's keys.
INSERT INTO "composite_key_rekeys" ("source", "kind")
SELECT DISTINCT "source", "kind" FROM "records"
WHERE position('|' in "key") > 0 OR position('\' in "key") > 0 OR (left("key", 7) = 'sha256:' AND "deleted_at" IS NULL);
