CREATE TABLE "member_limit_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"value" integer,
	"effective_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "member_limits" (
	"member_id" text PRIMARY KEY NOT NULL,
	"purchase_limit_jpy" integer,
	"purchase_pending_jpy" integer,
	"purchase_pending_at" timestamp with time zone,
	"draw_limit_coins" integer,
	"draw_pending_coins" integer,
	"draw_pending_at" timestamp with time zone,
	"excluded_until" timestamp with time zone,
	"excluded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "member_limit_changes_member_idx" ON "member_limit_changes" USING btree ("member_id","created_at");