-- The content history is append-only, like the ledger and the audit log (docs/decisions/040): a rollback
-- or a correction is a new version, never an edit of an old one.
CREATE OR REPLACE FUNCTION content_versions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'content_versions is append-only' USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER content_versions_no_update_delete BEFORE UPDATE OR DELETE ON content_versions
  FOR EACH ROW EXECUTE FUNCTION content_versions_append_only();
