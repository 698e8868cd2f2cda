CREATE TABLE "shop_closure_notices" (
	"closure_id" integer NOT NULL,
	"member_id" text NOT NULL,
	"paid_coins" integer NOT NULL,
	"free_coins" integer NOT NULL,
	"kept_prizes" integer NOT NULL,
	"notified_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shop_closure_notices_closure_id_member_id_pk" PRIMARY KEY("closure_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "shop_closure_refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"closure_id" integer NOT NULL,
	"member_id" text NOT NULL,
	"sealed_account" text NOT NULL,
	"key_id" text NOT NULL,
	"applied_at" timestamp with time zone NOT NULL,
	"paid_coins" integer,
	"refund_jpy" bigint,
	"paid_at" timestamp with time zone,
	"transfer_reference" text,
	"paid_by" text,
	CONSTRAINT "shop_closure_refunds_paid_whole" CHECK (("shop_closure_refunds"."paid_at" is null and "shop_closure_refunds"."paid_coins" is null and "shop_closure_refunds"."refund_jpy" is null and "shop_closure_refunds"."transfer_reference" is null)
        or ("shop_closure_refunds"."paid_at" is not null and "shop_closure_refunds"."paid_coins" > 0 and "shop_closure_refunds"."refund_jpy" = "shop_closure_refunds"."paid_coins" and "shop_closure_refunds"."transfer_reference" is not null))
);
--> statement-breakpoint
CREATE TABLE "shop_closures" (
	"id" serial PRIMARY KEY NOT NULL,
	"announced_at" timestamp with time zone NOT NULL,
	"sales_stop_at" timestamp with time zone NOT NULL,
	"refund_deadline" timestamp with time zone NOT NULL,
	"notice" text NOT NULL,
	"announced_by" text NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" text,
	CONSTRAINT "shop_closures_order" CHECK ("shop_closures"."sales_stop_at" >= "shop_closures"."announced_at"),
	CONSTRAINT "shop_closures_refund_period" CHECK ("shop_closures"."refund_deadline" >= "shop_closures"."announced_at" + interval '60 days')
);
--> statement-breakpoint
ALTER TABLE "shop_closure_notices" ADD CONSTRAINT "shop_closure_notices_closure_id_shop_closures_id_fk" FOREIGN KEY ("closure_id") REFERENCES "public"."shop_closures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shop_closure_refunds" ADD CONSTRAINT "shop_closure_refunds_closure_id_shop_closures_id_fk" FOREIGN KEY ("closure_id") REFERENCES "public"."shop_closures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_closure_refunds_member_idx" ON "shop_closure_refunds" USING btree ("closure_id","member_id");--> statement-breakpoint
CREATE INDEX "shop_closure_refunds_applied_idx" ON "shop_closure_refunds" USING btree ("closure_id","applied_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_closures_one_live_idx" ON "shop_closures" USING btree ((true)) WHERE "shop_closures"."cancelled_at" is null;