CREATE TABLE "prize_conversions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" text NOT NULL,
	"prize_ids" uuid[] NOT NULL,
	"kept_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"total" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"undo_until" timestamp with time zone NOT NULL,
	"undone_at" timestamp with time zone
);
