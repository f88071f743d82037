-- envelopes.body: the whole envelope as received, as json. json keeps the bytes, and Postgres
-- validates a page of text several times faster than it builds jsonb from it. Pages stored
-- before keep their content: their envelope is put back together from the columns it was split into
-- (equal in content, not in bytes). The type change rewrites the table under an exclusive lock.
ALTER TABLE "envelopes" ALTER COLUMN "data" SET DATA TYPE json USING json_build_object('status', "status", 'data', "data", 'message', "message");--> statement-breakpoint
ALTER TABLE "envelopes" RENAME COLUMN "data" TO "body";--> statement-breakpoint
ALTER TABLE "envelopes" ALTER COLUMN "body" SET COMPRESSION lz4;
