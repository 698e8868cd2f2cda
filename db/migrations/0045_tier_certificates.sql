ALTER TABLE "gacha_tiers" ADD COLUMN "certificate_company" text;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "certificate_number" text;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "card_photo_sha256" text;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "card_photo_original_path" text;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD CONSTRAINT "gacha_tiers_certificate_whole" CHECK (("gacha_tiers"."certificate_company" is null) = ("gacha_tiers"."certificate_number" is null));--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD CONSTRAINT "gacha_tiers_card_photo_whole" CHECK (("gacha_tiers"."card_photo_sha256" is null) = ("gacha_tiers"."card_photo_original_path" is null));--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD CONSTRAINT "gacha_tiers_card_photo_sha256" CHECK ("gacha_tiers"."card_photo_sha256" ~ '^[0-9a-f]{64}$');