CREATE TABLE "waiting_room_entries" (
	"gacha_id" text NOT NULL,
	"member_id" text NOT NULL,
	"phone_key" text NOT NULL,
	"arrived_at" timestamp with time zone NOT NULL,
	"arrival_no" bigserial NOT NULL,
	"order_key" uuid,
	"place" integer,
	"window_opened_at" timestamp with time zone,
	"window_closes_at" timestamp with time zone,
	"window_ended_at" timestamp with time zone,
	"lots_drawn" integer DEFAULT 0 NOT NULL,
	"left_at" timestamp with time zone,
	CONSTRAINT "waiting_room_entries_pk" PRIMARY KEY("gacha_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "waiting_rooms" (
	"gacha_id" text PRIMARY KEY NOT NULL,
	"ordered_at" timestamp with time zone,
	"ordered_count" integer DEFAULT 0 NOT NULL,
	"last_place" integer DEFAULT 0 NOT NULL,
	"admitted_through" integer DEFAULT 0 NOT NULL,
	"arrivals_through" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "waiting_room" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "waiting_room_window_seconds" integer DEFAULT 180 NOT NULL;--> statement-breakpoint
ALTER TABLE "gachas" ADD COLUMN "waiting_room_batch" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_room_entries_phone" ON "waiting_room_entries" USING btree ("gacha_id","phone_key");--> statement-breakpoint
CREATE UNIQUE INDEX "waiting_room_entries_place" ON "waiting_room_entries" USING btree ("gacha_id","place");--> statement-breakpoint
CREATE INDEX "waiting_room_entries_open" ON "waiting_room_entries" USING btree ("gacha_id","window_closes_at") WHERE "waiting_room_entries"."window_opened_at" is not null and "waiting_room_entries"."window_ended_at" is null;--> statement-breakpoint
CREATE INDEX "waiting_room_entries_late" ON "waiting_room_entries" USING btree ("gacha_id","arrived_at","member_id") WHERE "waiting_room_entries"."place" is null;--> statement-breakpoint
CREATE INDEX "waiting_room_entries_member" ON "waiting_room_entries" USING btree ("member_id");--> statement-breakpoint
ALTER TABLE "gachas" ADD CONSTRAINT "gachas_waiting_room_window" CHECK ("gachas"."waiting_room_window_seconds" between 30 and 3600);--> statement-breakpoint
ALTER TABLE "gachas" ADD CONSTRAINT "gachas_waiting_room_batch" CHECK ("gachas"."waiting_room_batch" between 1 and 10000);