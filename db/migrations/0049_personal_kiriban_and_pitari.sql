ALTER TABLE "gacha_tiers" ADD COLUMN "personal_kiriban_at" integer[];--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "pitari_of" text;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "personal_kiriban" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "pitari" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "prizes" ADD COLUMN "personal_kiriban_no" integer;--> statement-breakpoint
ALTER TABLE "prizes" ADD COLUMN "pitari_of" text;--> statement-breakpoint
CREATE UNIQUE INDEX "prizes_personal_kiriban_idx" ON "prizes" USING btree ("gacha_id","member_id","personal_kiriban_no") WHERE "prizes"."personal_kiriban_no" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "prizes_pitari_idx" ON "prizes" USING btree ("gacha_id","pitari_of") WHERE "prizes"."pitari_of" is not null;