CREATE TABLE "member_sponsorships" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "member_sponsorships" ADD CONSTRAINT "member_sponsorships_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "member_sponsorships_member_idx" ON "member_sponsorships" USING btree ("member_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_sponsorships_one_open_idx" ON "member_sponsorships" USING btree ("member_id") WHERE "member_sponsorships"."ended_at" is null;