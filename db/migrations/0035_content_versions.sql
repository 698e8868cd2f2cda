CREATE TABLE "content_versions" (
	"document_id" text NOT NULL,
	"version" integer NOT NULL,
	"type" text NOT NULL,
	"uid" text NOT NULL,
	"lang" text NOT NULL,
	"tags" text[] NOT NULL,
	"data" jsonb NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"note" text,
	CONSTRAINT "content_versions_document_id_version_pk" PRIMARY KEY("document_id","version")
);
--> statement-breakpoint
ALTER TABLE "content_documents" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "content_documents" ADD COLUMN "current_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "content_documents" ADD COLUMN "published_version" integer;--> statement-breakpoint
ALTER TABLE "content_documents" ADD COLUMN "scheduled_version" integer;--> statement-breakpoint
ALTER TABLE "content_documents" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "content_versions" ADD CONSTRAINT "content_versions_document_id_content_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."content_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "content_documents_scheduled_idx" ON "content_documents" USING btree ("scheduled_at") WHERE "content_documents"."scheduled_at" is not null;--> statement-breakpoint
-- Documents written before versioning (pages, special pages, notices) start their history at version 1.
INSERT INTO "content_versions" ("document_id", "version", "type", "uid", "lang", "tags", "data", "created_by", "created_at", "note")
SELECT "id", 1, "type", "uid", "lang", "tags", "data", NULL, COALESCE("published_at", "updated_at"), '既存の内容' FROM "content_documents" WHERE "type" <> 'banner';--> statement-breakpoint
UPDATE "content_documents" SET "published_version" = 1 WHERE "published_at" IS NOT NULL;
