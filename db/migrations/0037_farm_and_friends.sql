CREATE TABLE "farm_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"jst_day" date NOT NULL,
	"plot_no" integer,
	"planting_id" bigint,
	"seed_id" text,
	"friend_id" text,
	"coins" integer DEFAULT 0 NOT NULL,
	"capped_coins" integer DEFAULT 0 NOT NULL,
	"grant_id" bigint,
	"detail" jsonb,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "farm_days" (
	"member_id" text NOT NULL,
	"jst_day" date NOT NULL,
	"coins" integer DEFAULT 0 NOT NULL,
	"harvests" integer DEFAULT 0 NOT NULL,
	"waterings" integer DEFAULT 0 NOT NULL,
	"friend_waterings" integer DEFAULT 0 NOT NULL,
	"streak" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "farm_days_member_id_jst_day_pk" PRIMARY KEY("member_id","jst_day")
);
--> statement-breakpoint
CREATE TABLE "farm_plots" (
	"member_id" text NOT NULL,
	"plot_no" integer NOT NULL,
	"planting_id" bigint,
	"seed_id" text,
	"reward_coins" integer,
	"planted_at" timestamp with time zone,
	"ready_at" timestamp with time zone,
	"last_watered_at" timestamp with time zone,
	"waterings" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "farm_plots_member_id_plot_no_pk" PRIMARY KEY("member_id","plot_no")
);
--> statement-breakpoint
CREATE TABLE "farm_rules" (
	"id" integer PRIMARY KEY NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"plot_unlock_levels" integer[] NOT NULL,
	"water_cooldown_minutes" integer NOT NULL,
	"water_speedup_percent" integer NOT NULL,
	"wither_after_minutes" integer NOT NULL,
	"daily_coin_cap" integer NOT NULL,
	"friend_water_coins" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "farm_seeds" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"art" text NOT NULL,
	"grow_minutes" integer NOT NULL,
	"reward_coins" integer NOT NULL,
	"unlock_level" integer DEFAULT 1 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "friendships" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_low" text NOT NULL,
	"member_high" text NOT NULL,
	"requested_by" text NOT NULL,
	"status" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "friendships_pair" UNIQUE("member_low","member_high")
);
--> statement-breakpoint
CREATE INDEX "farm_actions_member_idx" ON "farm_actions" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "farm_actions_day_idx" ON "farm_actions" USING btree ("jst_day","kind");--> statement-breakpoint
CREATE INDEX "farm_actions_seed_idx" ON "farm_actions" USING btree ("seed_id");--> statement-breakpoint
CREATE UNIQUE INDEX "farm_actions_harvest_once" ON "farm_actions" USING btree ("planting_id") WHERE kind in ('harvest', 'clear');--> statement-breakpoint
CREATE UNIQUE INDEX "farm_actions_friend_once" ON "farm_actions" USING btree ("member_id","friend_id","jst_day") WHERE kind = 'friend_water';--> statement-breakpoint
CREATE INDEX "farm_days_day_idx" ON "farm_days" USING btree ("jst_day");--> statement-breakpoint
CREATE INDEX "friendships_high_idx" ON "friendships" USING btree ("member_high","status");--> statement-breakpoint
-- The farm's default rules (decision 044): 4 plots from the start, more at levels 5, 10, 20 and 30;
-- watering once per 8 hours takes 25 % off the time still to grow; a ripe crop withers after 24 hours;
-- at most 30 free coins a day from the farm; watering a friend's farm gives 1 coin to each.
INSERT INTO "farm_rules" ("id", "paused", "plot_unlock_levels", "water_cooldown_minutes", "water_speedup_percent", "wither_after_minutes", "daily_coin_cap", "friend_water_coins")
VALUES (1, false, '{1,1,1,1,5,10,20,30}', 480, 25, 1440, 30, 1) ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
INSERT INTO "farm_seeds" ("id", "name", "art", "grow_minutes", "reward_coins", "unlock_level", "sort") VALUES
  ('radish', 'ラディッシュ', 'radish', 30, 1, 1, 10),
  ('carrot', 'にんじん', 'carrot', 120, 2, 1, 20),
  ('tomato', 'トマト', 'tomato', 240, 3, 1, 30),
  ('corn', 'とうもろこし', 'corn', 480, 5, 3, 40),
  ('strawberry', 'いちご', 'strawberry', 720, 7, 5, 50),
  ('pumpkin', 'かぼちゃ', 'pumpkin', 1440, 10, 10, 60)
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
CREATE SEQUENCE IF NOT EXISTS "farm_planting_seq";
--> statement-breakpoint
ALTER TABLE "farm_seeds" ADD CONSTRAINT "farm_seeds_grow_minutes_range" CHECK ("grow_minutes" BETWEEN 30 AND 1440);
--> statement-breakpoint
ALTER TABLE "farm_seeds" ADD CONSTRAINT "farm_seeds_reward_range" CHECK ("reward_coins" BETWEEN 0 AND 1000);
--> statement-breakpoint
ALTER TABLE "farm_days" ADD CONSTRAINT "farm_days_counts_not_negative" CHECK ("coins" >= 0 AND "harvests" >= 0 AND "waterings" >= 0 AND "friend_waterings" >= 0 AND "streak" >= 1);
--> statement-breakpoint
ALTER TABLE "farm_actions" ADD CONSTRAINT "farm_actions_coins_not_negative" CHECK ("coins" >= 0 AND "capped_coins" >= 0);
--> statement-breakpoint
ALTER TABLE "friendships" ADD CONSTRAINT "friendships_ordered_pair" CHECK ("member_low" < "member_high");
