CREATE TABLE "shop_state" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"maintenance" boolean DEFAULT false NOT NULL,
	"maintenance_message" text,
	"maintenance_ends_at" timestamp with time zone,
	"changed_by" text,
	"changed_at" timestamp with time zone,
	CONSTRAINT "shop_state_one_row" CHECK ("shop_state"."id" = 1)
);
