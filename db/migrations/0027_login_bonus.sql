CREATE TABLE "login_bonus_claims" (
	"id" serial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"jst_day" date NOT NULL,
	"streak_day" integer NOT NULL,
	"coins" integer NOT NULL,
	"grant_id" bigint,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_bonus_claims_member_day" UNIQUE("member_id","jst_day")
);
