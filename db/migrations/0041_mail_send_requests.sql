-- Issue 28 (docs/decisions/052): every operator mail confirmed on /admin/mail; one above the approval threshold
-- waits here, invisible to members, until a second admin approves it.
CREATE TABLE "mail_send_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_key" text NOT NULL,
	"draft" jsonb NOT NULL,
	"subject" text NOT NULL,
	"coins_per_member" integer NOT NULL,
	"recipients" integer NOT NULL,
	"total_coins" bigint NOT NULL,
	"status" text NOT NULL,
	"requested_by" text,
	"requested_label" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_label" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	"mail_id" integer,
	CONSTRAINT "mail_send_requests_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
CREATE INDEX "mail_send_requests_pending_idx" ON "mail_send_requests" USING btree ("requested_at") WHERE "mail_send_requests"."status" = 'pending';