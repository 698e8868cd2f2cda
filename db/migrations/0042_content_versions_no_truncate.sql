-- The content history is append-only (docs/decisions/040): rows were guarded against UPDATE and DELETE,
-- the table was not against TRUNCATE, so `npm run db:roles` (which finds append-only tables by their
-- BEFORE TRUNCATE trigger, docs/decisions/051) left the shop role UPDATE and DELETE on it. Now it is
-- guarded like the ledger and the audit log, and every role but the owner loses the rights at once.
CREATE TRIGGER content_versions_no_truncate BEFORE TRUNCATE ON content_versions
  FOR EACH STATEMENT EXECUTE FUNCTION content_versions_append_only();
--> statement-breakpoint
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT a.grantee::regrole::text AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = 'content_versions'::regclass AND a.grantee <> c.relowner AND a.grantee <> 0
              AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON content_versions FROM %s', r.grantee);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_class c, aclexplode(c.relacl) a
              WHERE c.oid = 'content_versions'::regclass AND a.grantee = 0
                AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')) THEN
    REVOKE UPDATE, DELETE, TRUNCATE ON content_versions FROM PUBLIC;
  END IF;
END $$;
