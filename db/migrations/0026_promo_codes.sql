CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"batch_id" text,
	"label" text NOT NULL,
	"coins" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"max_redemptions" integer,
	"redeemed_count" integer DEFAULT 0 NOT NULL,
	"new_member_days" integer,
	"min_rank" integer,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_coins_positive" CHECK ("promo_codes"."coins" > 0),
	CONSTRAINT "promo_codes_window" CHECK ("promo_codes"."ends_at" > "promo_codes"."starts_at"),
	CONSTRAINT "promo_codes_count_within_cap" CHECK ("promo_codes"."redeemed_count" >= 0 and ("promo_codes"."max_redemptions" is null or "promo_codes"."redeemed_count" <= "promo_codes"."max_redemptions"))
);
--> statement-breakpoint
CREATE TABLE "promo_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"code_id" integer NOT NULL,
	"member_id" text NOT NULL,
	"coins" integer NOT NULL,
	"redeemed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "promo_redemptions" ADD CONSTRAINT "promo_redemptions_code_id_promo_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."promo_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code_unique" ON "promo_codes" USING btree ("code");--> statement-breakpoint
CREATE INDEX "promo_codes_batch_idx" ON "promo_codes" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_redemptions_once_per_member" ON "promo_redemptions" USING btree ("code_id","member_id");--> statement-breakpoint
CREATE INDEX "promo_redemptions_member_idx" ON "promo_redemptions" USING btree ("member_id","redeemed_at");