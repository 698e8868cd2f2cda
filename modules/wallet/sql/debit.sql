-- The wallet's debit of one kind, for an operator's negative adjustment (docs/decisions/026).
-- Every function takes p_now so tests can move time (NULL = now()). Lock order everywhere: the
-- member's wallet row first, then grants. Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Takes p_amount coins of one kind: free coins soonest expiry first, paid coins oldest first, one ledger
-- entry per grant touched (each with the memo). Never makes a balance negative: short of coins of that
-- kind (after writing off what has expired), nothing is taken and the answer says {short: true, balance}.
-- Idempotent on p_idem: a repeat answers the first debit ({replay: true}) and takes nothing.
CREATE OR REPLACE FUNCTION wallet_debit_kind(p_member text, p_kind text, p_amount int, p_reason text,
  p_counter text, p_idem text, p_ref text, p_memo text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record; g record; v_left int := p_amount; v_take int; v_seq int := 0; v_have int; v_prior record; v_has_wallet boolean;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'debit amount must be positive' USING ERRCODE = '22023';
  END IF;
  IF p_kind NOT IN ('paid', 'free') THEN
    RAISE EXCEPTION 'unknown coin kind %', p_kind USING ERRCODE = '22023';
  END IF;
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member FOR UPDATE;
  v_has_wallet := FOUND;
  SELECT member_id, kind, -sum(amount) OVER () AS taken INTO v_prior FROM coin_ledger WHERE idem_key = p_idem LIMIT 1;
  IF FOUND THEN
    IF v_prior.member_id <> p_member OR v_prior.kind <> p_kind OR v_prior.taken <> p_amount THEN
      RETURN jsonb_build_object('conflict', true);
    END IF;
    RETURN jsonb_build_object('replay', true, 'paid', coalesce(w.paid, 0), 'free', coalesce(w.free, 0));
  END IF;
  IF NOT v_has_wallet THEN
    RETURN jsonb_build_object('short', true, 'balance', 0);
  END IF;
  IF EXISTS (SELECT 1 FROM coin_grants WHERE member_id = p_member AND spendable AND remaining > 0 AND expires_at <= v_now) THEN
    PERFORM wallet_expire_member(p_member, v_now);
    SELECT paid, free INTO w FROM wallets WHERE member_id = p_member;
  END IF;
  v_have := CASE WHEN p_kind = 'paid' THEN w.paid ELSE w.free END;
  IF v_have < p_amount THEN
    RETURN jsonb_build_object('short', true, 'balance', v_have);
  END IF;
  FOR g IN SELECT id, remaining FROM coin_grants
            WHERE member_id = p_member AND kind = p_kind AND spendable AND remaining > 0 AND expires_at > v_now
            ORDER BY CASE WHEN p_kind = 'free' THEN expires_at END, granted_at, id
            FOR UPDATE LOOP
    EXIT WHEN v_left = 0;
    v_take := least(g.remaining, v_left);
    UPDATE coin_grants SET remaining = remaining - v_take WHERE id = g.id;
    IF p_kind = 'paid' THEN w.paid := w.paid - v_take; ELSE w.free := w.free - v_take; END IF;
    INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, ref, memo, paid_after, free_after, created_at)
    VALUES (p_member, p_kind, -v_take, p_counter, p_reason, p_idem, v_seq, g.id, p_ref, p_memo, w.paid, w.free, v_now);
    v_seq := v_seq + 1;
    v_left := v_left - v_take;
  END LOOP;
  IF v_left > 0 THEN
    RAISE EXCEPTION 'invariant: grants hold % coins less than the wallet', v_left USING ERRCODE = 'P0001';
  END IF;
  UPDATE wallets SET paid = w.paid, free = w.free, updated_at = v_now WHERE member_id = p_member;
  RETURN jsonb_build_object('replay', false, 'paid', w.paid, 'free', w.free);
END $$;
