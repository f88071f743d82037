-- Envelopes are large JSON pages written once and read rarely: lz4 compresses them several times
-- faster than the default pglz at about the same size (needs Postgres 14+ built with lz4).
ALTER TABLE "envelopes" ALTER COLUMN "data" SET COMPRESSION lz4;
