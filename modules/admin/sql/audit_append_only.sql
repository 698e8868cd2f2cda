-- The admin audit log is append-only, like the coin ledger: an entry is never changed or removed.
-- Rows: UPDATE and DELETE are refused by a row trigger; the table: TRUNCATE by a statement trigger.
-- On PostgreSQL with separated roles (npm run db:roles, docs/decisions/010) the shop's role also
-- lacks the rights (db/roles.ts finds tables guarded by a *_append_only trigger function).
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

CREATE OR REPLACE FUNCTION admin_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0001';
END $$;

DROP TRIGGER IF EXISTS admin_audit_log_no_update_delete ON admin_audit_log;
CREATE TRIGGER admin_audit_log_no_update_delete BEFORE UPDATE OR DELETE ON admin_audit_log
  FOR EACH ROW EXECUTE FUNCTION admin_audit_log_append_only();

DROP TRIGGER IF EXISTS admin_audit_log_no_truncate ON admin_audit_log;
CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION admin_audit_log_append_only();

-- Only the owner keeps UPDATE, DELETE and TRUNCATE (and the triggers refuse even the owner).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT a.grantee::regrole::text AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = 'admin_audit_log'::regclass AND a.grantee <> c.relowner AND a.grantee <> 0
              AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON admin_audit_log FROM %s', r.grantee);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_class c, aclexplode(c.relacl) a
              WHERE c.oid = 'admin_audit_log'::regclass AND a.grantee = 0 AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')) THEN
    REVOKE UPDATE, DELETE, TRUNCATE ON admin_audit_log FROM PUBLIC;
  END IF;
END $$;
