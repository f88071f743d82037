-- records, partitioned by kind: a partition a kind (records_of_<kind>), made here for every kind
-- stored and by a starting worker for every kind its config stores (feedsync_records_partition),
-- and a default partition for any other. Every statement on records names its kind, so each
-- touches one partition, whose indexes grow with that kind alone.
ALTER TABLE "records" RENAME TO "records_before_partitions";
--> statement-breakpoint
ALTER TABLE "records_before_partitions" RENAME CONSTRAINT "records_source_kind_key_pk" TO "records_before_partitions_pk";
--> statement-breakpoint
ALTER INDEX "records_kind_change_seq_idx" RENAME TO "records_before_partitions_change_idx";
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
	"deleted_at" timestamp with time zone,
	"change_seq" bigint DEFAULT nextval('records_change_seq') NOT NULL,
	CONSTRAINT "records_source_kind_key_pk" PRIMARY KEY("key","source","kind")
) PARTITION BY LIST ("kind");
--> statement-breakpoint
CREATE INDEX "records_kind_change_seq_idx" ON "records" USING btree ("kind","change_seq");
--> statement-breakpoint
CREATE TABLE "records_default" PARTITION OF "records" DEFAULT;
--> statement-breakpoint
-- A kind's partition's name: records_of_<kind> (kinds are lower case letters, digits and _), a digest for a long one.
CREATE FUNCTION feedsync_records_partition_name(kind text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN kind ~ '^[a-z][a-z0-9_]{0,48}$' THEN 'records_of_' || kind ELSE 'records_of_' || left(md5(kind), 24) END
$$;
--> statement-breakpoint
-- Makes the kind's partition if it has none, moving any of its rows out of the default partition;
-- returns whether it made one. Writers to the default partition wait meanwhile; writers of other
-- kinds do not (ATTACH takes SHARE UPDATE EXCLUSIVE on records). Callers take turns on the
-- default partition's lock, which also brings the catalog up to date for the second look.
CREATE FUNCTION feedsync_records_partition(of_kind text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  part text := feedsync_records_partition_name(of_kind);
BEGIN
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  LOCK TABLE records_default IN SHARE ROW EXCLUSIVE MODE;
  IF to_regclass(quote_ident(part)) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE records INCLUDING DEFAULTS)', part);
  -- Known to hold only its kind, ATTACH need not scan it.
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (kind IS NOT NULL AND kind = %L)', part, part || '_kind', of_kind);
  EXECUTE format('INSERT INTO %I SELECT * FROM records_default WHERE kind = %L', part, of_kind);
  DELETE FROM records_default WHERE kind = of_kind;
  EXECUTE format('ALTER TABLE records ATTACH PARTITION %I FOR VALUES IN (%L)', part, of_kind);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', part, part || '_kind');
  RETURN true;
END
$$;
--> statement-breakpoint
SELECT feedsync_records_partition(kind) FROM (SELECT DISTINCT kind FROM records_before_partitions) AS kinds;
--> statement-breakpoint
INSERT INTO records (source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, first_seen_at, changed_at, deleted_at, change_seq)
  SELECT source, kind, key, payload, content_hash, first_seen_run_id, last_changed_run_id, first_seen_at, changed_at, deleted_at, change_seq
  FROM records_before_partitions;
--> statement-breakpoint
DROP TABLE "records_before_partitions";
