CREATE TABLE "fraud_signals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"member_id" text NOT NULL,
	"key" text NOT NULL,
	"evidence" jsonb NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"decided_by" text,
	"decided_label" text,
	"decided_at" timestamp with time zone,
	"decision_note" text
);
--> statement-breakpoint
CREATE TABLE "risk_fingerprints" (
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"member_id" text NOT NULL,
	"label" text,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "risk_fingerprints_kind_key_hash_member_id_pk" PRIMARY KEY("kind","key_hash","member_id")
);
--> statement-breakpoint
CREATE TABLE "risk_watermarks" (
	"name" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"id" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "fraud_signals_kind_member_key_idx" ON "fraud_signals" USING btree ("kind","member_id","key");--> statement-breakpoint
CREATE INDEX "fraud_signals_status_idx" ON "fraud_signals" USING btree ("status","last_seen");--> statement-breakpoint
CREATE INDEX "fraud_signals_member_idx" ON "fraud_signals" USING btree ("member_id","last_seen");--> statement-breakpoint
CREATE INDEX "fraud_signals_open_idx" ON "fraud_signals" USING btree ("last_seen") WHERE "fraud_signals"."status" = 'open';--> statement-breakpoint
CREATE INDEX "risk_fingerprints_member_idx" ON "risk_fingerprints" USING btree ("member_id");