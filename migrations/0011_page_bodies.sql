-- Page bodies stored once: envelopes refer to their body by sha256 in page_bodies. The bodies
-- stored before move there, one row per hash (equal hashes are equal bodies), then leave envelopes.
CREATE TABLE "page_bodies" (
	"content_hash" text PRIMARY KEY NOT NULL,
	"body" json NOT NULL,
	"bytes" integer NOT NULL,
	"stored_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "page_bodies" ALTER COLUMN "body" SET COMPRESSION lz4;--> statement-breakpoint
INSERT INTO "page_bodies" ("content_hash", "body", "bytes", "stored_at")
  SELECT DISTINCT ON ("content_hash") "content_hash", "body", "bytes", "fetched_at" FROM "envelopes" ORDER BY "content_hash", "id";--> statement-breakpoint
ALTER TABLE "envelopes" ADD CONSTRAINT "envelopes_content_hash_page_bodies_content_hash_fk" FOREIGN KEY ("content_hash") REFERENCES "public"."page_bodies"("content_hash") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "envelopes_content_hash_idx" ON "envelopes" USING btree ("content_hash");--> statement-breakpoint
ALTER TABLE "envelopes" DROP COLUMN "body";
