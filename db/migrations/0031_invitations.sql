CREATE TABLE "invitation_codes" (
	"member_id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitation_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"id" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"inviter_id" text NOT NULL,
	"invitee_id" text NOT NULL,
	"code" text NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	"phone_verified_at" timestamp with time zone,
	"first_purchase_at" timestamp with time zone,
	"phone_hash" text,
	"outcome" text,
	"refusal" text,
	"reward_coins" integer,
	"settled_at" timestamp with time zone,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "invitation_codes_code_idx" ON "invitation_codes" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_invitee_idx" ON "invitations" USING btree ("invitee_id");--> statement-breakpoint
CREATE INDEX "invitations_inviter_idx" ON "invitations" USING btree ("inviter_id","attached_at");--> statement-breakpoint
CREATE INDEX "invitations_inviter_rewarded_idx" ON "invitations" USING btree ("inviter_id","settled_at") WHERE "invitations"."outcome" = 'rewarded';--> statement-breakpoint
CREATE INDEX "invitations_pending_idx" ON "invitations" USING btree ("checked_at") WHERE "invitations"."outcome" is null;