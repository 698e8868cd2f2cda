CREATE TABLE "gacha_lots" (
	"gacha_id" text NOT NULL,
	"position" integer NOT NULL,
	"tier_id" text NOT NULL,
	"draw_id" uuid,
	"member_id" text,
	CONSTRAINT "gacha_lots_gacha_id_position_pk" PRIMARY KEY("gacha_id","position")
);
--> statement-breakpoint
CREATE TABLE "gacha_secrets" (
	"gacha_id" text PRIMARY KEY NOT NULL,
	"seed" text NOT NULL,
	"reveal_salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gacha_tiers" (
	"id" text PRIMARY KEY NOT NULL,
	"gacha_id" text NOT NULL,
	"label" text NOT NULL,
	"rank" smallint NOT NULL,
	"effect" text DEFAULT 'normal' NOT NULL,
	"card_name" text NOT NULL,
	"card_image_path" text NOT NULL,
	"rarity" text,
	"card_grade" text,
	"card_set" text,
	"card_number" text,
	"quantity" integer NOT NULL,
	"conversion_value" integer NOT NULL,
	"is_last_one" boolean DEFAULT false NOT NULL,
	CONSTRAINT "gacha_tiers_quantity_positive" CHECK ("gacha_tiers"."quantity" > 0),
	CONSTRAINT "gacha_tiers_value_nonnegative" CHECK ("gacha_tiers"."conversion_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "coin_grants" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"remaining" integer NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "coin_grants_amounts" CHECK ("coin_grants"."amount" > 0 and "coin_grants"."remaining" >= 0 and "coin_grants"."remaining" <= "coin_grants"."amount")
);
--> statement-breakpoint
CREATE TABLE "coin_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"counter_account" text NOT NULL,
	"reason" text NOT NULL,
	"idem_key" text NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL,
	"grant_id" bigint,
	"ref" text,
	"memo" text,
	"paid_after" integer NOT NULL,
	"free_after" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coin_ledger_amount_nonzero" CHECK ("coin_ledger"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"member_id" text PRIMARY KEY NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	"free" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_nonnegative" CHECK ("wallets"."paid" >= 0 and "wallets"."free" >= 0)
);
--> statement-breakpoint
CREATE TABLE "draws" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" text NOT NULL,
	"idem_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"gacha_id" text NOT NULL,
	"count" integer NOT NULL,
	"cost" integer NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"error_details" jsonb,
	"last_one" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gacha_member_draws" (
	"gacha_id" text NOT NULL,
	"member_id" text NOT NULL,
	"lots" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prizes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" text NOT NULL,
	"draw_id" uuid NOT NULL,
	"gacha_id" text NOT NULL,
	"tier_id" text NOT NULL,
	"position" integer,
	"conversion_value" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decide_by" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"auto_converted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prizes_value_nonnegative" CHECK ("prizes"."conversion_value" >= 0)
);
--> statement-breakpoint
CREATE TABLE "member_progress" (
	"member_id" text PRIMARY KEY NOT NULL,
	"exp" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "no" integer NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "gachas_no_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "draw_options" integer[] DEFAULT '{1,10,100}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "per_member_limit" integer;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "min_rank" smallint;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "commitment" text;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "committed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "sold_out_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "revealed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "gacha_secrets" ADD CONSTRAINT "gacha_secrets_gacha_id_gachas_id_fk" FOREIGN KEY ("gacha_id") REFERENCES "public"."gachas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD CONSTRAINT "gacha_tiers_gacha_id_gachas_id_fk" FOREIGN KEY ("gacha_id") REFERENCES "public"."gachas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gacha_lots_unclaimed_idx" ON "gacha_lots" USING btree ("gacha_id","position") WHERE "gacha_lots"."draw_id" is null;--> statement-breakpoint
CREATE INDEX "gacha_tiers_gacha_idx" ON "gacha_tiers" USING btree ("gacha_id","rank");--> statement-breakpoint
CREATE INDEX "coin_grants_spendable_idx" ON "coin_grants" USING btree ("member_id","kind","expires_at") WHERE "coin_grants"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "coin_grants_expiry_idx" ON "coin_grants" USING btree ("expires_at") WHERE "coin_grants"."remaining" > 0;--> statement-breakpoint
CREATE UNIQUE INDEX "coin_ledger_idem_idx" ON "coin_ledger" USING btree ("idem_key","seq");--> statement-breakpoint
CREATE INDEX "coin_ledger_member_idx" ON "coin_ledger" USING btree ("member_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "draws_idem_idx" ON "draws" USING btree ("member_id","idem_key");--> statement-breakpoint
CREATE INDEX "draws_gacha_idx" ON "draws" USING btree ("gacha_id","created_at");--> statement-breakpoint
CREATE INDEX "draws_member_idx" ON "draws" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "gacha_member_draws_pk" ON "gacha_member_draws" USING btree ("gacha_id","member_id");--> statement-breakpoint
CREATE INDEX "prizes_member_idx" ON "prizes" USING btree ("member_id","status","created_at");--> statement-breakpoint
CREATE INDEX "prizes_draw_idx" ON "prizes" USING btree ("draw_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prizes_lot_idx" ON "prizes" USING btree ("gacha_id","position") WHERE "prizes"."position" is not null;--> statement-breakpoint
CREATE INDEX "prizes_due_idx" ON "prizes" USING btree ("decide_by") WHERE "prizes"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "gachas" ADD CONSTRAINT "gachas_no_unique" UNIQUE("no");--> statement-breakpoint
ALTER TABLE "gachas" ADD CONSTRAINT "gachas_price_positive" CHECK ("gachas"."price_per_draw" > 0);--> statement-breakpoint
ALTER TABLE "gachas" ADD CONSTRAINT "gachas_remaining_range" CHECK ("gachas"."remaining_lots" >= 0 and "gachas"."remaining_lots" <= "gachas"."total_lots");