ALTER TABLE "records" DROP CONSTRAINT "records_source_kind_key_pk";
--> statement-breakpoint
ALTER TABLE "records" ADD CONSTRAINT "records_source_kind_key_pk" PRIMARY KEY("key","source","kind");