CREATE TABLE "coin_packs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"price_jpy" integer NOT NULL,
	"paid_coins" integer NOT NULL,
	"bonus_coins" integer DEFAULT 0 NOT NULL,
	"first_purchase_only" boolean DEFAULT false NOT NULL,
	"badge" text,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coin_packs_amounts" CHECK ("coin_packs"."price_jpy" > 0 and "coin_packs"."paid_coins" > 0 and "coin_packs"."bonus_coins" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"order_id" uuid,
	"provider_ref" text,
	"hint" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text,
	"locked_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "payment_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"coin_pack_id" text NOT NULL,
	"method" text NOT NULL,
	"channel" text DEFAULT 'web' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount_jpy" integer NOT NULL,
	"paid_coins" integer NOT NULL,
	"bonus_coins" integer NOT NULL,
	"rank_bonus_percent" integer DEFAULT 0 NOT NULL,
	"rank_bonus_coins" integer DEFAULT 0 NOT NULL,
	"first_purchase_only" boolean DEFAULT false NOT NULL,
	"pack_name" text NOT NULL,
	"provider_ref" text,
	"checkout_url" text,
	"provider_payment_id" text,
	"failure_reason" text,
	"credited_at" timestamp with time zone,
	"paid_grant_id" bigint,
	"bonus_grant_id" bigint,
	"refunded_jpy" integer DEFAULT 0 NOT NULL,
	"reversed_paid" integer DEFAULT 0 NOT NULL,
	"reversed_free" integer DEFAULT 0 NOT NULL,
	"unrecovered_coins" integer DEFAULT 0 NOT NULL,
	"reversed_at" timestamp with time zone,
	"receipt_no" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "payment_orders_amounts" CHECK ("payment_orders"."amount_jpy" > 0 and "payment_orders"."paid_coins" > 0 and "payment_orders"."bonus_coins" >= 0 and "payment_orders"."rank_bonus_coins" >= 0)
);
--> statement-breakpoint
CREATE TABLE "purchase_profiles" (
	"member_id" text PRIMARY KEY NOT NULL,
	"declared_minor" boolean NOT NULL,
	"declared_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hold_reason" text,
	"hold_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_reference" text NOT NULL,
	"amount_jpy" integer NOT NULL,
	"description" text NOT NULL,
	"return_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"webhook_url" text NOT NULL,
	"status" text DEFAULT 'requires_action' NOT NULL,
	"refunded_jpy" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_unique_idx" ON "payment_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "payment_events_unprocessed_idx" ON "payment_events" USING btree ("received_at") WHERE "payment_events"."processed_at" is null;--> statement-breakpoint
CREATE INDEX "payment_orders_member_idx" ON "payment_orders" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_provider_ref_idx" ON "payment_orders" USING btree ("method","provider_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_orders_receipt_idx" ON "payment_orders" USING btree ("receipt_no");--> statement-breakpoint
CREATE INDEX "payment_orders_pending_idx" ON "payment_orders" USING btree ("expires_at") WHERE "payment_orders"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payment_orders_credited_idx" ON "payment_orders" USING btree ("credited_at") WHERE "payment_orders"."credited_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_payments_reference_idx" ON "sandbox_payments" USING btree ("merchant_reference");