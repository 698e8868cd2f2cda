-- The wallet's spending: lock the wallet, expire what is due, spend free coins first (docs/decisions/007).
-- Every function takes p_now so tests can move time (NULL = now()). Lock order everywhere: the
-- member's wallet row first, then grants. Lifetimes are never decided here: callers pass the expiry
-- (server/config.ts). Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Locks the wallet, expires what is due and returns the spendable balance (0 without a wallet).
-- The lock and the probe for due grants are one statement (one executor run on every draw). The probe reads
-- the statement's snapshot, taken before any wait for the lock: a grant it sees as due may have been expired
-- meanwhile (wallet_expire_member then finds nothing to do), and a grant it cannot see is newer than the
-- snapshot, granted with a lifetime ahead of it, so never due. The balance is the locked row's newest version.
CREATE OR REPLACE FUNCTION wallet_lock_available(p_member text, p_now timestamptz) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record;
BEGIN
  SELECT wl.paid, wl.free,
         EXISTS (SELECT 1 FROM coin_grants g
                  WHERE g.member_id = p_member AND g.spendable AND g.remaining > 0 AND g.expires_at <= v_now) AS due
    INTO w FROM wallets wl WHERE wl.member_id = p_member FOR UPDATE OF wl;
  IF NOT FOUND THEN RETURN 0; END IF;
  IF w.due THEN
    PERFORM wallet_expire_member(p_member, v_now);
    SELECT paid, free INTO w FROM wallets WHERE member_id = p_member;
  END IF;
  RETURN w.paid + w.free;
END $$;

-- Spends p_amount: free coins first, soonest expiry first; then paid coins, oldest first. One ledger
-- entry per grant touched. The caller holds the wallet lock (wallet_lock_available) and has checked
-- the balance; a shortfall here is a broken invariant and aborts the transaction.
-- The grants are read without FOR UPDATE: every function that changes a grant (spend, debit, expiry,
-- revoke; a grant's member never changes) holds its member's wallet row lock first, so under that lock
-- no other transaction can change them, and a row lock per grant would only add a WAL record per grant
-- touched (docs/decisions/046). coin_grants_amounts (remaining >= 0) still stops any overdraw.
-- `spendable` (remaining > 0, generated) is what the partial indexes select on: saying it lets the planner use
-- them, and a spend that leaves coins in the grant stays a HOT update (0038, decision 046).
CREATE OR REPLACE FUNCTION wallet_spend(p_member text, p_amount int, p_reason text, p_counter text,
  p_idem text, p_ref text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record; g record; v_left int := p_amount; v_take int; v_seq int := 0;
  v_paid_spent int := 0; v_free_spent int := 0;
BEGIN
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member FOR UPDATE;
  IF NOT FOUND OR w.paid + w.free < p_amount THEN
    RAISE EXCEPTION 'invariant: spend of % exceeds the wallet', p_amount USING ERRCODE = 'P0001';
  END IF;
  FOR g IN SELECT id, kind, remaining FROM coin_grants
            WHERE member_id = p_member AND spendable AND remaining > 0 AND expires_at > v_now
            ORDER BY (kind = 'paid'), CASE WHEN kind = 'free' THEN expires_at END, granted_at, id LOOP
    EXIT WHEN v_left = 0;
    v_take := least(g.remaining, v_left);
    UPDATE coin_grants SET remaining = remaining - v_take WHERE id = g.id;
    IF g.kind = 'paid' THEN
      w.paid := w.paid - v_take; v_paid_spent := v_paid_spent + v_take;
    ELSE
      w.free := w.free - v_take; v_free_spent := v_free_spent + v_take;
    END IF;
    INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, ref, paid_after, free_after, created_at)
    VALUES (p_member, g.kind, -v_take, p_counter, p_reason, p_idem, v_seq, g.id, p_ref, w.paid, w.free, v_now);
    v_seq := v_seq + 1;
    v_left := v_left - v_take;
  END LOOP;
  IF v_left > 0 THEN
    RAISE EXCEPTION 'invariant: grants hold % coins less than the wallet', v_left USING ERRCODE = 'P0001';
  END IF;
  UPDATE wallets SET paid = w.paid, free = w.free, updated_at = v_now WHERE member_id = p_member;
  RETURN jsonb_build_object('paidSpent', v_paid_spent, 'freeSpent', v_free_spent, 'paid', w.paid, 'free', w.free);
END $$;
