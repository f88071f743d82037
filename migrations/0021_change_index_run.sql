-- The change feed's index carries each record's last run, so that a page's proof of unchanged
-- records (storeProvenPage: its range's records, written as its run, counted) reads the index
-- alone, not a heap page a record: at tens of millions of rows those are cold.
DROP INDEX "records_kind_change_seq_idx";
--> statement-breakpoint
CREATE INDEX "records_kind_change_seq_idx" ON "records" USING btree ("kind","change_seq") INCLUDE ("last_changed_run_id");
