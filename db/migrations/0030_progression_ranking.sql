CREATE TABLE "member_monthly_ranks" (
	"member_id" text NOT NULL,
	"month" date NOT NULL,
	"rank" smallint NOT NULL,
	"paid_coins" bigint NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_monthly_ranks_member_id_month_pk" PRIMARY KEY("member_id","month")
);
--> statement-breakpoint
CREATE TABLE "progression_levels" (
	"level" integer PRIMARY KEY NOT NULL,
	"exp_required" bigint NOT NULL,
	"reward_coins" integer NOT NULL,
	"claim_days" integer NOT NULL,
	CONSTRAINT "progression_levels_exp_key" UNIQUE("exp_required")
);
--> statement-breakpoint
CREATE TABLE "rank_months" (
	"month" date PRIMARY KEY NOT NULL,
	"cursor" text DEFAULT '' NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	"rank_ups" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ranking_marks" (
	"name" text PRIMARY KEY NOT NULL,
	"folded_to" timestamp with time zone DEFAULT '-infinity' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking_member_exp" (
	"member_id" text PRIMARY KEY NOT NULL,
	"exp" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ranking_scores" (
	"board" text NOT NULL,
	"period_start" date NOT NULL,
	"member_id" text NOT NULL,
	"score" bigint NOT NULL,
	"tiebreak" bigint DEFAULT 0 NOT NULL,
	"reached_at" timestamp with time zone NOT NULL,
	"exp_before" bigint,
	"hit_gacha_id" text,
	"hit_tier_id" text,
	"hit_value" integer,
	"hit_price" integer,
	CONSTRAINT "ranking_scores_board_period_start_member_id_pk" PRIMARY KEY("board","period_start","member_id")
);
--> statement-breakpoint
CREATE INDEX "member_monthly_ranks_month_idx" ON "member_monthly_ranks" USING btree ("month","rank");--> statement-breakpoint
CREATE INDEX "ranking_scores_board_idx" ON "ranking_scores" USING btree ("board","period_start","score" DESC NULLS LAST,"tiebreak" DESC NULLS LAST,"reached_at");