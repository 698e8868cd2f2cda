CREATE TABLE "mail_states" (
	"mail_id" bigint NOT NULL,
	"member_id" text NOT NULL,
	"read_at" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"grant_id" bigint,
	CONSTRAINT "mail_states_mail_id_member_id_pk" PRIMARY KEY("mail_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "mails" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"audience" text NOT NULL,
	"member_id" text,
	"segment" jsonb,
	"category" text NOT NULL,
	"subject" text NOT NULL,
	"body" jsonb NOT NULL,
	"attachment_coins" integer,
	"claim_until" timestamp with time zone,
	"attachment_reason" text,
	"dedupe_key" text,
	"send_at" timestamp with time zone DEFAULT now() NOT NULL,
	"canceled_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mails_member_dedupe" UNIQUE("member_id","dedupe_key")
);
--> statement-breakpoint
CREATE INDEX "mail_states_member_idx" ON "mail_states" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "mails_personal_idx" ON "mails" USING btree ("member_id","id" DESC NULLS LAST) WHERE "mails"."audience" = 'personal';--> statement-breakpoint
CREATE INDEX "mails_broadcast_idx" ON "mails" USING btree ("send_at" DESC NULLS LAST) WHERE "mails"."audience" = 'broadcast';