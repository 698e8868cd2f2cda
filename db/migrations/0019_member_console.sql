CREATE TABLE "coin_adjustments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_key" text NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"requested_by" text,
	"requested_label" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_label" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	CONSTRAINT "coin_adjustments_request_key_unique" UNIQUE("request_key"),
	CONSTRAINT "coin_adjustments_amount_nonzero" CHECK ("coin_adjustments"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "member_notes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"author_id" text,
	"author_label" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "purchase_profiles" ADD COLUMN "age_declared" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "coin_adjustments_member_idx" ON "coin_adjustments" USING btree ("member_id","requested_at");--> statement-breakpoint
CREATE INDEX "coin_adjustments_pending_idx" ON "coin_adjustments" USING btree ("requested_at") WHERE "coin_adjustments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "member_notes_member_idx" ON "member_notes" USING btree ("member_id","id");--> statement-breakpoint
CREATE INDEX "users_name_prefix_idx" ON "users" USING btree (lower("name") text_pattern_ops,"id");--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at","id");