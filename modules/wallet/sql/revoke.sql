-- The wallet's take-back of one grant, for refunds and chargebacks (docs/decisions/008).
-- Every function takes p_now so tests can move time (NULL = now()). Lock order everywhere: the
-- member's wallet row first, then grants. Lifetimes are never decided here: callers pass the expiry
-- (server/config.ts). Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Taking back coins of one grant (a refunded or charged-back purchase, docs/decisions/008): what is
-- left of the grant is debited, one ledger entry; what was already spent stays spent and is
-- reported to the caller, who records it on the order. Idempotent on p_idem.
CREATE OR REPLACE FUNCTION wallet_revoke_grant(p_grant bigint, p_reason text, p_counter text, p_idem text,
  p_ref text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  g record; w record; v_prior record; v_take int;
BEGIN
  SELECT id, member_id, kind, amount, remaining, expires_at INTO g FROM coin_grants WHERE id = p_grant;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no grant %', p_grant USING ERRCODE = '22023';
  END IF;
  -- Lock order as everywhere: the wallet first, then the grant.
  SELECT paid, free INTO w FROM wallets WHERE member_id = g.member_id FOR UPDATE;
  SELECT amount INTO v_prior FROM coin_ledger WHERE idem_key = p_idem AND seq = 0;
  IF FOUND THEN
    RETURN jsonb_build_object('revoked', -v_prior.amount, 'replay', true);
  END IF;
  -- Coins past their date are written off as expiry first (the expiry would have taken them anyway).
  IF EXISTS (SELECT 1 FROM coin_grants WHERE member_id = g.member_id AND spendable AND remaining > 0 AND expires_at <= v_now) THEN
    PERFORM wallet_expire_member(g.member_id, v_now);
    SELECT paid, free INTO w FROM wallets WHERE member_id = g.member_id;
  END IF;
  SELECT remaining INTO v_take FROM coin_grants WHERE id = p_grant FOR UPDATE;
  IF v_take = 0 THEN
    RETURN jsonb_build_object('revoked', 0, 'replay', false);
  END IF;
  UPDATE coin_grants SET remaining = 0 WHERE id = p_grant;
  IF g.kind = 'paid' THEN w.paid := w.paid - v_take; ELSE w.free := w.free - v_take; END IF;
  UPDATE wallets SET paid = w.paid, free = w.free, updated_at = v_now WHERE member_id = g.member_id;
  INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, ref, paid_after, free_after, created_at)
  VALUES (g.member_id, g.kind, -v_take, p_counter, p_reason, p_idem, 0, p_grant, p_ref, w.paid, w.free, v_now);
  RETURN jsonb_build_object('revoked', v_take, 'replay', false);
END $$;

-- For a take-back that must be whole (a conversion's 元に戻す, decision 057): the grant a ledger key
-- credited (the first of the keys that has one), so the caller need not read the ledger itself.
CREATE OR REPLACE FUNCTION wallet_grant_of_key(p_keys text[]) RETURNS bigint
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
  SELECT l.grant_id FROM unnest(p_keys) WITH ORDINALITY AS k(key, n)
    JOIN coin_ledger l ON l.idem_key = k.key AND l.seq = 0 AND l.grant_id IS NOT NULL
   ORDER BY k.n LIMIT 1
$$;

-- Locks the member's wallet (lock order: the wallet, then grants) and answers whether every listed grant
-- is the member's, alive and untouched (nothing of it spent, expired or taken back), so that taking them
-- back leaves the balance exactly as before they were granted. The lock holds to the caller's commit.
CREATE OR REPLACE FUNCTION wallet_grants_untouched(p_member text, p_grants bigint[], p_now timestamptz)
  RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM 1 FROM wallets WHERE member_id = p_member FOR UPDATE;
  RETURN NOT EXISTS (SELECT 1 FROM coin_grants
                      WHERE id = ANY (p_grants)
                        AND (member_id <> p_member OR remaining <> amount OR expires_at <= coalesce(p_now, now())));
END $$;
