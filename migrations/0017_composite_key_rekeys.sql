CREATE TABLE "composite_key_rekeys" (
	"source" text NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "composite_key_rekeys_source_kind_pk" PRIMARY KEY("source","kind")
);
--> statement-breakpoint
-- Only a key holding a "|" or a "\" can be a composite key that escaping now writes otherwise; one scan of records, once.
INSERT INTO "composite_key_rekeys" ("source", "kind")
SELECT DISTINCT "source", "kind" FROM "records" WHERE position('|' in "key") > 0 OR position('\' in "key") > 0;
