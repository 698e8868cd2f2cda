-- Who may write the wallet's tables (docs/decisions/051): only its functions, which run with their
-- owner's rights (SECURITY DEFINER: wallet_grant, wallet_spend, wallet_lock_available, wallet_debit_kind, wallet_hold_paid_expiry,
-- wallet_expire_member, wallet_expire_due, wallet_revoke_grant, wallet_grant_of_key, wallet_grants_untouched). Every other role keeps SELECT at most:
-- INSERT, UPDATE, DELETE and TRUNCATE on wallets, coin_grants and coin_ledger are taken back from every
-- grantee but the owner, including what default privileges gave when a migration created a table.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT c.oid::regclass::text AS tbl,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid IN ('wallets'::regclass, 'coin_grants'::regclass, 'coin_ledger'::regclass)
              AND a.grantee <> c.relowner AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')
           UNION
           SELECT t.attrelid::regclass::text,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END
             FROM pg_attribute t, aclexplode(t.attacl) a
            WHERE t.attrelid IN ('wallets'::regclass, 'coin_grants'::regclass, 'coin_ledger'::regclass)
              AND a.privilege_type IN ('INSERT', 'UPDATE') LOOP
    EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON %s FROM %s', r.tbl, r.grantee);
  END LOOP;
  -- The sequences of their ids: only the functions draw from them.
  FOR r IN SELECT DISTINCT s.oid::regclass::text AS seq,
                  CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_depend d JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S', aclexplode(s.relacl) a
            WHERE d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i') AND a.grantee <> s.relowner
              AND d.refobjid IN ('wallets'::regclass, 'coin_grants'::regclass, 'coin_ledger'::regclass) LOOP
    EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM %s', r.seq, r.grantee);
  END LOOP;
END $$;
