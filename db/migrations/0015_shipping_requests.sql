CREATE TABLE "shipping_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"note" text,
	"actor" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipping_request_items" (
	"request_id" uuid NOT NULL,
	"prize_id" uuid NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "shipping_request_items_request_id_prize_id_pk" PRIMARY KEY("request_id","prize_id")
);
--> statement-breakpoint
CREATE TABLE "shipping_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"idem_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"address_sealed" text NOT NULL,
	"address_key_id" text NOT NULL,
	"fee_coins" integer DEFAULT 0 NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"promised_date" date NOT NULL,
	"ship_deadline" timestamp with time zone NOT NULL,
	"carrier" text,
	"tracking_number" text,
	"shipped_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"canceled_at" timestamp with time zone,
	"compensated_at" timestamp with time zone,
	"compensation_coins" integer DEFAULT 0 NOT NULL,
	"internal_note" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "shipping_requests_amounts" CHECK ("shipping_requests"."fee_coins" >= 0 and "shipping_requests"."compensation_coins" >= 0)
);
--> statement-breakpoint
ALTER TABLE "prizes" ADD COLUMN "keep_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prizes" ADD COLUMN "keep_reminded_days" integer;--> statement-breakpoint
ALTER TABLE "shipping_events" ADD CONSTRAINT "shipping_events_request_id_shipping_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."shipping_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shipping_request_items" ADD CONSTRAINT "shipping_request_items_request_id_shipping_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."shipping_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shipping_events_request_idx" ON "shipping_events" USING btree ("request_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_request_items_live_prize_idx" ON "shipping_request_items" USING btree ("prize_id") WHERE "shipping_request_items"."released_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "shipping_requests_idem_idx" ON "shipping_requests" USING btree ("member_id","idem_key");--> statement-breakpoint
CREATE INDEX "shipping_requests_member_idx" ON "shipping_requests" USING btree ("member_id","requested_at");--> statement-breakpoint
CREATE INDEX "shipping_requests_queue_idx" ON "shipping_requests" USING btree ("status","promised_date");--> statement-breakpoint
CREATE INDEX "shipping_requests_deadline_idx" ON "shipping_requests" USING btree ("ship_deadline") WHERE "shipping_requests"."compensated_at" is null and "shipping_requests"."shipped_at" is null and "shipping_requests"."canceled_at" is null;--> statement-breakpoint
CREATE INDEX "prizes_keep_until_idx" ON "prizes" USING btree ("keep_until") WHERE "prizes"."status" = 'kept';