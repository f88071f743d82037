ALTER TABLE "envelopes" ADD COLUMN "proof_seq_from" bigint;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "proof_seq_to" bigint;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "proof_records" integer;--> statement-breakpoint
ALTER TABLE "envelopes" ADD COLUMN "proof_derivation" text;