CREATE TABLE "member_addresses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"sealed" text NOT NULL,
	"key_id" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "member_addresses_member_idx" ON "member_addresses" USING btree ("member_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "member_addresses_one_default_idx" ON "member_addresses" USING btree ("member_id") WHERE "member_addresses"."is_default";--> statement-breakpoint
CREATE INDEX "member_addresses_key_idx" ON "member_addresses" USING btree ("key_id");