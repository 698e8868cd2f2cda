-- The draw a member was short of coins for, kept on the order so the return page can offer it again.
ALTER TABLE "payment_orders" ADD COLUMN "draw_gacha_id" text;--> statement-breakpoint
ALTER TABLE "payment_orders" ADD COLUMN "draw_count" integer;