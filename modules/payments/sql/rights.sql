-- Payment orders and their provider events are history (docs/decisions/051): an order changes status
-- (paid, refunded) and an event is marked processed, but neither is removed (kept for accounting law), so
-- no role but the owner may DELETE or TRUNCATE them, also when default privileges gave it as a migration
-- created the table. Applied after the migrations by db/module-sql.ts (docs/decisions/010).

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT c.oid::regclass::text AS tbl,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid IN ('payment_orders'::regclass, 'payment_events'::regclass)
              AND a.grantee <> c.relowner AND a.privilege_type IN ('DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE DELETE, TRUNCATE ON %s FROM %s', r.tbl, r.grantee);
  END LOOP;
END $$;
