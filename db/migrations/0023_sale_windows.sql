ALTER TABLE "genres" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "genres" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coin_packs" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "coin_packs" ADD COLUMN "ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "genres" ADD CONSTRAINT "genres_window" CHECK ("genres"."ends_at" is null or "genres"."starts_at" is null or "genres"."ends_at" > "genres"."starts_at");--> statement-breakpoint
ALTER TABLE "coin_packs" ADD CONSTRAINT "coin_packs_window" CHECK ("coin_packs"."ends_at" is null or "coin_packs"."starts_at" is null or "coin_packs"."ends_at" > "coin_packs"."starts_at");