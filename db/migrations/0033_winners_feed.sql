CREATE TABLE "draw_wins" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"prize_id" uuid NOT NULL,
	"draw_id" uuid NOT NULL,
	"member_id" text NOT NULL,
	"gacha_id" text NOT NULL,
	"tier_id" text NOT NULL,
	"won_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "winners_feed_named" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "draw_wins_prize_idx" ON "draw_wins" USING btree ("prize_id");--> statement-breakpoint
CREATE INDEX "draw_wins_won_idx" ON "draw_wins" USING btree ("won_at","id");--> statement-breakpoint
CREATE INDEX "draw_wins_gacha_idx" ON "draw_wins" USING btree ("gacha_id","won_at","id");--> statement-breakpoint
CREATE INDEX "draw_wins_draw_idx" ON "draw_wins" USING btree ("draw_id");