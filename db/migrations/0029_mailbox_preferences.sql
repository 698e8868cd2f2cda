CREATE TABLE "mail_preferences" (
	"member_id" text PRIMARY KEY NOT NULL,
	"email_opt_in" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mail_states_claimed_idx" ON "mail_states" USING btree ("member_id","claimed_at" DESC NULLS LAST) WHERE "mail_states"."claimed_at" is not null;