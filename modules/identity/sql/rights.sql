-- Sponsorships are history (decision 083, as docs/decisions/051): a sponsorship is started and ended, never
-- removed — a past one still labels 「PR」 what was done during it — so no role but the owner may DELETE or
-- TRUNCATE member_sponsorships, also when default privileges gave it as a migration created the table.
-- Restrictions are history too (decision 084): a hold's or ban's category, its appeal and the decision stay
-- the record of what the member was told.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT c.oid::regclass::text AS tbl,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid IN ('member_sponsorships'::regclass, 'member_restrictions'::regclass)
              AND a.grantee <> c.relowner AND a.privilege_type IN ('DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE DELETE, TRUNCATE ON %s FROM %s', r.tbl, r.grantee);
  END LOOP;
END $$;
