-- Issue 28 (docs/decisions/050): changes that make, promote, demote or remove an admin wait here for a
-- second admin; one pending request per subject (member id or invited address).
CREATE TABLE "staff_role_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"member_id" text,
	"email" text,
	"from_role" text,
	"role" text NOT NULL,
	"permissions" text[] NOT NULL,
	"status" text NOT NULL,
	"requested_by" text,
	"requested_label" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_label" text,
	"decided_at" timestamp with time zone,
	"decision_note" text,
	CONSTRAINT "staff_role_requests_subject_named" CHECK (("staff_role_requests"."kind" = 'invite' and "staff_role_requests"."email" is not null) or ("staff_role_requests"."kind" <> 'invite' and "staff_role_requests"."member_id" is not null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "staff_role_requests_one_pending_idx" ON "staff_role_requests" USING btree ("subject") WHERE "staff_role_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "staff_role_requests_pending_idx" ON "staff_role_requests" USING btree ("requested_at") WHERE "staff_role_requests"."status" = 'pending';