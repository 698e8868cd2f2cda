ALTER TABLE "gacha_tiers" ADD COLUMN "kiriban_at" integer[];--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "kiriban_next" integer;--> statement-breakpoint
ALTER TABLE "prizes" ADD COLUMN "kiriban_no" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "prizes_kiriban_idx" ON "prizes" USING btree ("gacha_id","kiriban_no") WHERE "prizes"."kiriban_no" is not null;