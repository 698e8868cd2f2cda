CREATE TABLE "member_daily_rollups" (
	"day" date PRIMARY KEY NOT NULL,
	"new_members" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_rollup_marks" (
	"name" text PRIMARY KEY NOT NULL,
	"folded_to" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "draw_daily_members" (
	"day" date PRIMARY KEY NOT NULL,
	"active_members" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "draw_daily_rollups" (
	"day" date NOT NULL,
	"gacha_id" text NOT NULL,
	"draws" integer NOT NULL,
	"lots" bigint NOT NULL,
	"coins" bigint NOT NULL,
	CONSTRAINT "draw_daily_rollups_day_gacha_id_pk" PRIMARY KEY("day","gacha_id")
);
--> statement-breakpoint
CREATE TABLE "draw_member_days" (
	"day" date NOT NULL,
	"member_id" text NOT NULL,
	CONSTRAINT "draw_member_days_day_member_id_pk" PRIMARY KEY("day","member_id")
);
--> statement-breakpoint
CREATE TABLE "draw_rollup_marks" (
	"name" text PRIMARY KEY NOT NULL,
	"folded_to" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_daily_rollups" (
	"day" date NOT NULL,
	"method" text NOT NULL,
	"orders" integer NOT NULL,
	"amount_jpy" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales_rollup_marks" (
	"name" text PRIMARY KEY NOT NULL,
	"folded_to" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "unused_paid_snapshots" (
	"base_date" date PRIMARY KEY NOT NULL,
	"unused_paid_coins" bigint NOT NULL,
	"members_with_balance" integer NOT NULL,
	"issued_in_period" bigint NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sales_daily_rollups_pk" ON "sales_daily_rollups" USING btree ("day","method");