ALTER TABLE "gacha_tiers" ADD COLUMN "card_condition" text;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "card_cost_yen" integer;