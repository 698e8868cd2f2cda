CREATE TABLE "stock_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"card_name" text NOT NULL,
	"card_set" text,
	"card_number" text,
	"card_grade" text,
	"identity_key" text NOT NULL,
	"value_coins" integer NOT NULL,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_cards_value_nonnegative" CHECK ("stock_cards"."value_coins" >= 0),
	CONSTRAINT "stock_cards_on_hand_nonnegative" CHECK ("stock_cards"."on_hand" >= 0),
	CONSTRAINT "stock_cards_reserved_range" CHECK ("stock_cards"."reserved" >= 0 and "stock_cards"."reserved" <= "stock_cards"."on_hand")
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"stock_card_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"on_hand_delta" integer NOT NULL,
	"reserved_delta" integer NOT NULL,
	"gacha_id" text,
	"prize_id" uuid,
	"request_id" uuid,
	"note" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_prize_cards" (
	"prize_id" uuid PRIMARY KEY NOT NULL,
	"stock_card_id" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_substitutions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"prize_id" uuid NOT NULL,
	"condition" text NOT NULL,
	"original_stock_card_id" uuid,
	"substitute_stock_card_id" uuid,
	"compensation_coins" integer DEFAULT 0 NOT NULL,
	"operator_id" text,
	"operator_label" text NOT NULL,
	"note_for_member" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "shipping_substitutions_coins" CHECK ("shipping_substitutions"."compensation_coins" >= 0)
);
--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD COLUMN "stock_card_id" uuid;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_stock_card_id_stock_cards_id_fk" FOREIGN KEY ("stock_card_id") REFERENCES "public"."stock_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_prize_cards" ADD CONSTRAINT "stock_prize_cards_stock_card_id_stock_cards_id_fk" FOREIGN KEY ("stock_card_id") REFERENCES "public"."stock_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_substitutions" ADD CONSTRAINT "shipping_substitutions_request_id_shipping_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."shipping_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stock_cards_identity_idx" ON "stock_cards" USING btree ("identity_key");--> statement-breakpoint
CREATE INDEX "stock_cards_value_idx" ON "stock_cards" USING btree ("value_coins");--> statement-breakpoint
CREATE INDEX "stock_movements_card_idx" ON "stock_movements" USING btree ("stock_card_id","id");--> statement-breakpoint
CREATE INDEX "stock_movements_prize_idx" ON "stock_movements" USING btree ("prize_id");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_substitutions_prize_idx" ON "shipping_substitutions" USING btree ("request_id","prize_id");--> statement-breakpoint
CREATE INDEX "shipping_substitutions_prize_only_idx" ON "shipping_substitutions" USING btree ("prize_id");--> statement-breakpoint
ALTER TABLE "gacha_tiers" ADD CONSTRAINT "gacha_tiers_stock_card_id_stock_cards_id_fk" FOREIGN KEY ("stock_card_id") REFERENCES "public"."stock_cards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gacha_tiers_stock_card_idx" ON "gacha_tiers" USING btree ("stock_card_id");