CREATE TABLE "gacha_beacon_terms" (
	"gacha_id" text PRIMARY KEY NOT NULL,
	"chain_hash" text NOT NULL,
	"scheme" text NOT NULL,
	"public_key" text NOT NULL,
	"genesis_time" bigint NOT NULL,
	"period" integer NOT NULL,
	"receipt_key" text NOT NULL,
	"close_margin_ms" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "draw_beacon_heads" (
	"gacha_id" text NOT NULL,
	"round" bigint NOT NULL,
	"head" text NOT NULL,
	"prev_head" text NOT NULL,
	"receipts" integer NOT NULL,
	"published_at" timestamp (3) with time zone NOT NULL,
	"settle_round" bigint NOT NULL,
	"settled_at" timestamp with time zone,
	"beacon_signature" text,
	"beacon_randomness" text,
	CONSTRAINT "draw_beacon_heads_gacha_id_round_pk" PRIMARY KEY("gacha_id","round")
);
--> statement-breakpoint
CREATE TABLE "draw_receipts" (
	"draw_id" uuid PRIMARY KEY NOT NULL,
	"gacha_id" text NOT NULL,
	"member_id" text NOT NULL,
	"slots" integer[] NOT NULL,
	"accepted_at" timestamp (3) with time zone NOT NULL,
	"round" bigint NOT NULL,
	"after_head" text NOT NULL,
	"after_round" bigint NOT NULL,
	"receipt_hash" text,
	"settled_at" timestamp with time zone,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "gacha_lots" ALTER COLUMN "tier_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "gacha_secrets" ALTER COLUMN "seed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "draw_mode" text DEFAULT 'sequence' NOT NULL;--> statement-breakpoint
ALTER TABLE "gacha_beacon_terms" ADD CONSTRAINT "gacha_beacon_terms_gacha_id_gachas_id_fk" FOREIGN KEY ("gacha_id") REFERENCES "public"."gachas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "draw_beacon_heads_head_idx" ON "draw_beacon_heads" USING btree ("head");--> statement-breakpoint
CREATE INDEX "draw_beacon_heads_unsettled_idx" ON "draw_beacon_heads" USING btree ("settle_round") WHERE "draw_beacon_heads"."settled_at" is null;--> statement-breakpoint
CREATE INDEX "draw_receipts_open_idx" ON "draw_receipts" USING btree ("gacha_id","round") WHERE "draw_receipts"."receipt_hash" is null;--> statement-breakpoint
CREATE INDEX "draw_receipts_round_idx" ON "draw_receipts" USING btree ("gacha_id","round");--> statement-breakpoint
CREATE INDEX "draw_receipts_member_idx" ON "draw_receipts" USING btree ("member_id","accepted_at");--> statement-breakpoint
ALTER TABLE "gachas" ADD CONSTRAINT "gachas_draw_mode" CHECK ("gachas"."draw_mode" in ('sequence', 'beacon'));