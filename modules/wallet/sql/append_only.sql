-- The coin ledger is append-only (architecture.md invariant 5): corrections are new entries.
-- Rows: UPDATE and DELETE are refused by a row trigger; the table: TRUNCATE by a statement trigger
-- (D1 of issue 10). On PostgreSQL with separated roles (npm run db:roles, docs/decisions/010) the
-- shop's role also lacks the rights, and only the owner could drop these triggers.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

CREATE OR REPLACE FUNCTION coin_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0001';
END $$;

DROP TRIGGER IF EXISTS coin_ledger_no_update_delete ON coin_ledger;
CREATE TRIGGER coin_ledger_no_update_delete BEFORE UPDATE OR DELETE ON coin_ledger
  FOR EACH ROW EXECUTE FUNCTION coin_ledger_append_only();

DROP TRIGGER IF EXISTS coin_ledger_no_truncate ON coin_ledger;
CREATE TRIGGER coin_ledger_no_truncate BEFORE TRUNCATE ON coin_ledger
  FOR EACH STATEMENT EXECUTE FUNCTION coin_ledger_append_only();

-- Only the owner keeps UPDATE, DELETE and TRUNCATE (and the triggers refuse even the owner): a grant
-- made by default privileges when the table was created is taken back from every other role.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT a.grantee::regrole::text AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = 'coin_ledger'::regclass AND a.grantee <> c.relowner AND a.grantee <> 0
              AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON coin_ledger FROM %s', r.grantee);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_class c, aclexplode(c.relacl) a
              WHERE c.oid = 'coin_ledger'::regclass AND a.grantee = 0 AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')) THEN
    REVOKE UPDATE, DELETE, TRUNCATE ON coin_ledger FROM PUBLIC;
  END IF;
END $$;
