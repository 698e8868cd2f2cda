CREATE TABLE "member_restrictions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"category" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"started_by" text NOT NULL,
	"until" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"link_hash" text,
	"link_expires_at" timestamp with time zone,
	"appeal_inquiry_id" uuid,
	"appealed_at" timestamp with time zone,
	"appeal_outcome" text,
	"appeal_statement" text,
	"appeal_decided_at" timestamp with time zone,
	"appeal_decided_by" text,
	CONSTRAINT "member_restrictions_appeal_decided" CHECK (("member_restrictions"."appeal_outcome" is null) = ("member_restrictions"."appeal_decided_at" is null) and ("member_restrictions"."appeal_outcome" is null or "member_restrictions"."appeal_inquiry_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "member_restrictions" ADD CONSTRAINT "member_restrictions_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_restrictions_member_idx" ON "member_restrictions" USING btree ("member_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_restrictions_one_open_idx" ON "member_restrictions" USING btree ("member_id","kind") WHERE "member_restrictions"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "member_restrictions_link_idx" ON "member_restrictions" USING btree ("link_hash");