ALTER TABLE "gacha_tiers" ADD COLUMN "ceiling_after" integer;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "ceiling_of" text[];--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "ceiling" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gacha_member_draws" ADD COLUMN "ceiling_streak" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "gacha_member_draws" ADD COLUMN "ceilings" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "prizes" ADD COLUMN "ceiling_no" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "prizes_ceiling_idx" ON "prizes" USING btree ("gacha_id","member_id","ceiling_no") WHERE "prizes"."ceiling_no" is not null;