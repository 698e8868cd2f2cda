-- The closure is history (decision 085, as docs/decisions/051): the closure record, who was told and each 払戻し
-- application with its transfer are the accounts' evidence, never removed, so no role but the owner may DELETE or
-- TRUNCATE them, also when default privileges gave it as a migration created the tables.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT c.oid::regclass::text AS tbl,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid IN ('shop_closures'::regclass, 'shop_closure_notices'::regclass, 'shop_closure_refunds'::regclass)
              AND a.grantee <> c.relowner AND a.privilege_type IN ('DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE DELETE, TRUNCATE ON %s FROM %s', r.tbl, r.grantee);
  END LOOP;
END $$;
