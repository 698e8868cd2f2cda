-- The wallet's expiry: a member's due grants are written off (one ledger entry each), by the job or before a spend.
-- Every function takes p_now so tests can move time (NULL = now()). Lock order everywhere: the
-- member's wallet row first, then grants. Lifetimes are never decided here: callers pass the expiry
-- (server/config.ts). Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Expires a member's due grants (the ledger gets one expiry entry per grant). Locks the wallet.
CREATE OR REPLACE FUNCTION wallet_expire_member(p_member text, p_now timestamptz) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record; g record; v_count int := 0;
BEGIN
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member FOR UPDATE;
  IF NOT FOUND THEN RETURN 0; END IF;
  FOR g IN SELECT id, kind, remaining FROM coin_grants
            WHERE member_id = p_member AND spendable AND remaining > 0 AND expires_at <= v_now
            ORDER BY expires_at, id FOR UPDATE LOOP
    IF g.kind = 'paid' THEN w.paid := w.paid - g.remaining; ELSE w.free := w.free - g.remaining; END IF;
    UPDATE coin_grants SET remaining = 0 WHERE id = g.id;
    INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, paid_after, free_after, created_at)
    VALUES (p_member, g.kind, -g.remaining, 'expired', 'expiry', 'expiry:' || g.id, 0, g.id, w.paid, w.free, v_now);
    v_count := v_count + 1;
  END LOOP;
  IF v_count > 0 THEN
    UPDATE wallets SET paid = w.paid, free = w.free, updated_at = v_now WHERE member_id = p_member;
  END IF;
  RETURN v_count;
END $$;

-- The expiry job: up to p_limit members with due grants. Returns the number of grants expired.
CREATE OR REPLACE FUNCTION wallet_expire_due(p_now timestamptz, p_limit int) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  m record; v_total int := 0;
BEGIN
  FOR m IN SELECT DISTINCT member_id FROM coin_grants
            WHERE spendable AND remaining > 0 AND expires_at <= v_now LIMIT p_limit LOOP
    v_total := v_total + wallet_expire_member(m.member_id, v_now);
  END LOOP;
  RETURN v_total;
END $$;
