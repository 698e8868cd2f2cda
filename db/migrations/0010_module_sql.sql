-- The checksums of the modules' SQL files applied after the migrations (db/module-sql.ts, docs/decisions/010).
CREATE TABLE "module_sql" (
	"file" text PRIMARY KEY NOT NULL,
	"checksum" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
