-- Draws, prizes, the members' conversions (decision 057), and a beacon pack's receipts and heads (decision 081) are history (docs/decisions/051): a draw's rows change status (a prize is kept,
-- converted, shipped) but are never removed, so no role but the owner may DELETE or TRUNCATE them —
-- also when default privileges gave it as a migration created the table.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT c.oid::regclass::text AS tbl,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid IN ('draws'::regclass, 'prizes'::regclass, 'prize_conversions'::regclass,
                            'draw_receipts'::regclass, 'draw_beacon_heads'::regclass)
              AND a.grantee <> c.relowner AND a.privilege_type IN ('DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE DELETE, TRUNCATE ON %s FROM %s', r.tbl, r.grantee);
  END LOOP;
END $$;
