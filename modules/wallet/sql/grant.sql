-- The wallet's credits: a grant with its own expiry, idempotent on its key (docs/decisions/007).
-- Every function takes p_now so tests can move time (NULL = now()). Lock order everywhere: the
-- member's wallet row first, then grants. Lifetimes are never decided here: callers pass the expiry
-- (server/config.ts). Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- The answer to a repeated grant key: the first grant, or a conflict when the request differs.
CREATE OR REPLACE FUNCTION wallet_grant_replay(p_grant bigint, p_owner text, p_owner_kind text, p_owner_amount int,
  p_member text, p_kind text, p_amount int) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  w record;
BEGIN
  IF p_owner <> p_member OR p_owner_kind <> p_kind OR p_owner_amount <> p_amount THEN
    RETURN jsonb_build_object('conflict', true);
  END IF;
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member;
  RETURN jsonb_build_object('grantId', p_grant, 'replay', true, 'paid', coalesce(w.paid, 0), 'free', coalesce(w.free, 0));
END $$;

-- Credits coins as a new grant. Idempotent on p_idem: a repeat returns the first grant.
CREATE OR REPLACE FUNCTION wallet_grant(p_member text, p_kind text, p_amount int, p_expires_at timestamptz,
  p_reason text, p_counter text, p_idem text, p_ref text, p_memo text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record; v_grant bigint; v_existing record;
BEGIN
  IF p_amount IS NULL OR p_amount <= 0 THEN
    RAISE EXCEPTION 'grant amount must be positive' USING ERRCODE = '22023';
  END IF;
  IF p_kind NOT IN ('paid', 'free') THEN
    RAISE EXCEPTION 'unknown coin kind %', p_kind USING ERRCODE = '22023';
  END IF;
  -- A repeat of a finished grant replays it, whatever time it is now. A key belongs to one grant:
  -- another member, kind or amount under it is a conflict and credits nothing.
  SELECT grant_id, member_id, kind, amount INTO v_existing FROM coin_ledger WHERE idem_key = p_idem AND seq = 0;
  IF FOUND THEN
    RETURN wallet_grant_replay(v_existing.grant_id, v_existing.member_id, v_existing.kind, v_existing.amount, p_member, p_kind, p_amount);
  END IF;
  IF p_expires_at IS NULL OR p_expires_at <= v_now THEN
    RAISE EXCEPTION 'a grant must expire in the future' USING ERRCODE = '22023';
  END IF;
  INSERT INTO wallets (member_id, updated_at) VALUES (p_member, v_now) ON CONFLICT (member_id) DO NOTHING;
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member FOR UPDATE;
  -- Checked again under the wallet lock, so two concurrent grants with one key credit once.
  SELECT grant_id, member_id, kind, amount INTO v_existing FROM coin_ledger WHERE idem_key = p_idem AND seq = 0;
  IF FOUND THEN
    RETURN wallet_grant_replay(v_existing.grant_id, v_existing.member_id, v_existing.kind, v_existing.amount, p_member, p_kind, p_amount);
  END IF;
  BEGIN
    INSERT INTO coin_grants (member_id, kind, amount, remaining, granted_at, expires_at, reason)
    VALUES (p_member, p_kind, p_amount, p_amount, v_now, p_expires_at, p_reason) RETURNING id INTO v_grant;
    IF p_kind = 'paid' THEN w.paid := w.paid + p_amount; ELSE w.free := w.free + p_amount; END IF;
    UPDATE wallets SET paid = w.paid, free = w.free, updated_at = v_now WHERE member_id = p_member;
    INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, ref, memo, paid_after, free_after, created_at)
    VALUES (p_member, p_kind, p_amount, p_counter, p_reason, p_idem, 0, v_grant, p_ref, p_memo, w.paid, w.free, v_now);
  EXCEPTION WHEN unique_violation THEN
    -- The same key committed meanwhile for another member (whose wallet this lock does not cover).
    SELECT grant_id, member_id, kind, amount INTO v_existing FROM coin_ledger WHERE idem_key = p_idem AND seq = 0;
    RETURN wallet_grant_replay(v_existing.grant_id, v_existing.member_id, v_existing.kind, v_existing.amount, p_member, p_kind, p_amount);
  END;
  RETURN jsonb_build_object('grantId', v_grant, 'replay', false, 'paid', w.paid, 'free', w.free);
END $$;
