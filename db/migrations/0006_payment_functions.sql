-- Taking back coins of one grant (a refunded or charged-back purchase, docs/decisions/008): what is
-- left of the grant is debited, one ledger entry; what was already spent stays spent and is
-- reported to the caller, who records it on the order. Idempotent on p_idem.
CREATE OR REPLACE FUNCTION wallet_revoke_grant(p_grant bigint, p_reason text, p_counter text, p_idem text,
  p_ref text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
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
  IF EXISTS (SELECT 1 FROM coin_grants WHERE member_id = g.member_id AND remaining > 0 AND expires_at <= v_now) THEN
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
--> statement-breakpoint
-- The coin shop's invariants: a credited order has exactly its coins in the ledger, once; nothing
-- is credited for an order that was not; and no shop purchase entry (key purchase:…) exists
-- without its order. (Operators' and tests' own paid grants use other keys.)
CREATE OR REPLACE FUNCTION payments_check_invariants() RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (
    SELECT jsonb_build_object('check', 'credit_mismatch', 'orderId', o.id, 'status', o.status,
             'paid', coalesce(p.amount, 0), 'bonus', coalesce(b.amount, 0)) AS v
      FROM payment_orders o
      LEFT JOIN (SELECT ref, sum(amount) AS amount, count(*) AS n FROM coin_ledger
                  WHERE reason = 'purchase' GROUP BY ref) p ON p.ref = o.id::text
      LEFT JOIN (SELECT ref, sum(amount) AS amount, count(*) AS n FROM coin_ledger
                  WHERE reason = 'purchase_bonus' GROUP BY ref) b ON b.ref = o.id::text
     WHERE (o.credited_at IS NOT NULL AND (coalesce(p.amount, 0) <> o.paid_coins OR p.n <> 1
             OR coalesce(b.amount, 0) <> o.bonus_coins + o.rank_bonus_coins
             OR (o.bonus_coins + o.rank_bonus_coins > 0 AND b.n <> 1)))
        OR (o.credited_at IS NULL AND (p.n IS NOT NULL OR b.n IS NOT NULL))
    UNION ALL
    SELECT jsonb_build_object('check', 'purchase_without_order', 'ledgerId', e.id)
      FROM coin_ledger e
     WHERE e.idem_key LIKE 'purchase:%'
       AND NOT EXISTS (SELECT 1 FROM payment_orders o WHERE o.id::text = e.ref)
    UNION ALL
    SELECT jsonb_build_object('check', 'reversal_mismatch', 'orderId', o.id,
             'reversed', coalesce(r.amount, 0), 'recorded', o.reversed_paid + o.reversed_free)
      FROM payment_orders o
      LEFT JOIN (SELECT ref, -sum(amount) AS amount FROM coin_ledger
                  WHERE reason = 'purchase_reversal' GROUP BY ref) r ON r.ref = o.id::text
     WHERE coalesce(r.amount, 0) <> o.reversed_paid + o.reversed_free
  ) checks
$$;
