-- Issue 17 (docs/decisions/046): the grants' partial indexes select on a generated `spendable` (remaining > 0)
-- instead of on `remaining`, so a spend that leaves coins in a grant updates it HOT (no index entries).
DROP INDEX "coin_grants_spendable_idx";--> statement-breakpoint
DROP INDEX "coin_grants_expiry_idx";--> statement-breakpoint
ALTER TABLE "coin_grants" ADD COLUMN "spendable" boolean GENERATED ALWAYS AS (remaining > 0) STORED;--> statement-breakpoint
CREATE INDEX "coin_grants_spendable_idx" ON "coin_grants" USING btree ("member_id","kind","expires_at") WHERE "coin_grants"."spendable";--> statement-breakpoint
CREATE INDEX "coin_grants_expiry_idx" ON "coin_grants" USING btree ("expires_at") WHERE "coin_grants"."spendable";