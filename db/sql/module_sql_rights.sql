-- The record of the modules' SQL (module_sql) is the migration step's, written as the owner: every other
-- role keeps SELECT at most, also when default privileges gave more as the migration created the table
-- (docs/decisions/051). Applied after the migrations by db/module-sql.ts (docs/decisions/010).

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = 'module_sql'::regclass AND a.grantee <> c.relowner
              AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON module_sql FROM %s', r.grantee);
  END LOOP;
END $$;
