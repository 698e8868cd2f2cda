-- The draw module's prize conversion: a member's undecided (or, asked explicitly, kept) prizes become
-- free coins through the wallet's wallet_grant, all or none, under the prizes' row locks (decision 009).
-- The free coins' lifetime comes from the caller (FREE_COIN_EXPIRY_DAYS in server/config.ts), never
-- from here. Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Converting releases each prize's card from stock through the gacha module's gacha_stock_move_prizes.
--
-- A prize the member kept for shipping is converted only when the request says so (issue 9: a bulk
-- conversion once converted kept cards too). The rule lives here, under the row locks, so that no
-- caller — the pages, the API, the deadline job — can get round it.
--
-- A member's own conversion can be undone for a few seconds (decision 057): with p_undo_window (CONVERT_UNDO_SECONDS) it is
-- recorded in prize_conversions (which prizes, which were kept) and answers its id; prize_convert_undo
-- reverses it exactly with new ledger entries. A prize's first conversion grants under the key
-- 'convert:<prize>'; a conversion after an undo under 'convert:<prize>:<conversion>', so that a grant
-- key never answers an earlier, undone conversion.
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean, p_include_kept boolean,
  p_free_expiry interval, p_now timestamptz, p_undo_window interval) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  p record; v_found int; v_open int; v_kept int; v_total int := 0; v_list jsonb := '[]'::jsonb;
  v_ids uuid[] := '{}'; v_tiers text[] := '{}'; v_was_kept uuid[] := '{}';
  v_conversion uuid := gen_random_uuid(); v_key text; v_undoable boolean;
BEGIN
  SELECT count(*), count(*) FILTER (WHERE status IN ('pending', 'kept')), count(*) FILTER (WHERE status = 'kept')
    INTO v_found, v_open, v_kept FROM (
    SELECT id, status FROM prizes WHERE id = ANY (p_prizes) AND member_id = p_member ORDER BY id FOR UPDATE) s;
  IF NOT p_auto THEN
    IF v_found < cardinality(ARRAY(SELECT DISTINCT unnest(p_prizes))) THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'PRIZE_NOT_FOUND');
    END IF;
    IF v_open < v_found THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'PRIZE_ALREADY_DECIDED');
    END IF;
    -- Kept cards need the explicit flag: nothing the member chose to keep goes by a bulk request.
    IF v_kept > 0 AND NOT p_include_kept THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'PRIZE_KEPT', 'kept', v_kept);
    END IF;
  END IF;
  -- The deadline job converts only what is still due, as seen under the row locks: an undecided
  -- prize past its choice window, or a kept one past its storage period (issue 12). A member who
  -- chose, kept or asked for shipping a moment ago keeps the choice.
  FOR p IN SELECT id, tier_id, conversion_value, status FROM prizes
            WHERE id = ANY (p_prizes) AND member_id = p_member
              AND (NOT p_auto OR (status = 'pending' AND decide_by <= v_now)
                              OR (status = 'kept' AND keep_until <= v_now))
            ORDER BY id LOOP
    UPDATE prizes SET status = 'converted', decided_at = v_now, auto_converted = p_auto WHERE id = p.id;
    IF p.conversion_value > 0 THEN
      v_key := 'convert:' || p.id;
      IF wallet_grant_of_key(ARRAY[v_key]) IS NOT NULL THEN
        v_key := v_key || ':' || v_conversion;
      END IF;
      PERFORM wallet_grant(p_member, 'free', p.conversion_value, v_now + p_free_expiry,
        CASE WHEN p_auto THEN 'prize_auto_conversion' ELSE 'prize_conversion' END,
        'conversion', v_key, p.id::text, NULL, v_now);
    END IF;
    IF p.status = 'kept' THEN v_was_kept := v_was_kept || p.id; END IF;
    v_total := v_total + p.conversion_value;
    v_list := v_list || jsonb_build_object('prizeId', p.id, 'coins', p.conversion_value);
    v_ids := v_ids || p.id; v_tiers := v_tiers || p.tier_id;
  END LOOP;
  -- A converted prize's card is no longer promised (decision 023): reserved − 1 per card, after the
  -- wallet (lock order: prizes → wallet → stock cards, these in id order), in this same transaction.
  PERFORM gacha_stock_move_prizes(v_ids, v_tiers, 'released', NULL, NULL, v_now);
  v_undoable := p_undo_window IS NOT NULL AND NOT p_auto AND cardinality(v_ids) > 0;
  IF v_undoable THEN
    INSERT INTO prize_conversions (id, member_id, prize_ids, kept_ids, total, created_at, undo_until)
    VALUES (v_conversion, p_member, v_ids, v_was_kept, v_total, v_now, v_now + p_undo_window);
  END IF;
  RETURN jsonb_build_object('status', 'completed', 'converted', v_list, 'total', v_total,
    'balance', wallet_balance(p_member),
    'conversionId', CASE WHEN v_undoable THEN v_conversion END,
    'undoUntil', CASE WHEN v_undoable THEN v_now + p_undo_window END);
END $$;

-- The previous six-argument call (a build before decision 057): a conversion that cannot be undone.
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean, p_include_kept boolean,
  p_free_expiry interval, p_now timestamptz) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT prize_convert(p_member, p_prizes, p_auto, p_include_kept, p_free_expiry, p_now, NULL::interval)
$$;

-- Undoes a member's own conversion within its window (decision 057), exactly: each prize back to the
-- state it was converted from (undecided, or kept with its storage period), each grant taken back whole
-- by the wallet's wallet_revoke_grant (a new ledger entry, reason prize_conversion_undo; the ledger is
-- append-only), each card reserved again. All or nothing, under the conversion's row lock, then the
-- prizes' (lock order: conversion → prizes → wallet → grants → stock cards). Answers:
--   completed (replay: true when it was already undone: a double tap undoes once),
--   rejected CONVERSION_NOT_FOUND (none, or another member's), UNDO_EXPIRED (the window has passed),
--   COINS_SPENT (some of the coins it granted are spent), UNDO_UNAVAILABLE (a prize or card has moved on).
CREATE OR REPLACE FUNCTION prize_convert_undo(p_member text, p_conversion uuid, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  c record; p record; v_grant bigint; v_n int := 0; v_tiers text[] := '{}'; v_ids uuid[] := '{}';
  v_grants bigint[] := '{}'; v_refs uuid[] := '{}';
BEGIN
  SELECT * INTO c FROM prize_conversions WHERE id = p_conversion FOR UPDATE;
  IF NOT FOUND OR c.member_id <> p_member THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'CONVERSION_NOT_FOUND');
  END IF;
  IF c.undone_at IS NOT NULL THEN
    RETURN jsonb_build_object('status', 'completed', 'replay', true, 'restored', cardinality(c.prize_ids),
      'total', c.total, 'balance', wallet_balance(p_member));
  END IF;
  IF v_now > c.undo_until THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNDO_EXPIRED');
  END IF;
  FOR p IN SELECT id, tier_id, status, auto_converted, decided_at, conversion_value FROM prizes
            WHERE id = ANY (c.prize_ids) AND member_id = p_member ORDER BY id FOR UPDATE LOOP
    IF p.status <> 'converted' OR p.auto_converted OR p.decided_at IS DISTINCT FROM c.created_at THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'UNDO_UNAVAILABLE');
    END IF;
    v_n := v_n + 1; v_ids := v_ids || p.id; v_tiers := v_tiers || p.tier_id;
    IF p.conversion_value > 0 THEN
      -- This conversion's grant: under its own key after an earlier undo, else the prize's first key.
      v_grant := wallet_grant_of_key(ARRAY['convert:' || p.id || ':' || c.id, 'convert:' || p.id]);
      IF v_grant IS NULL THEN
        RETURN jsonb_build_object('status', 'rejected', 'code', 'UNDO_UNAVAILABLE');
      END IF;
      v_grants := v_grants || v_grant; v_refs := v_refs || p.id;
    END IF;
  END LOOP;
  IF v_n <> cardinality(c.prize_ids) THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNDO_UNAVAILABLE');
  END IF;
  -- The wallet's lock, then the grants (the wallet's own function): every coin granted must still be there.
  IF NOT wallet_grants_untouched(p_member, v_grants, v_now) THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'COINS_SPENT');
  END IF;
  BEGIN
    FOR i IN 1 .. coalesce(cardinality(v_grants), 0) LOOP
      PERFORM wallet_revoke_grant(v_grants[i], 'prize_conversion_undo', 'conversion',
        'convert-undo:' || c.id || ':' || v_refs[i], v_refs[i]::text, v_now);
    END LOOP;
    UPDATE prizes SET status = CASE WHEN id = ANY (c.kept_ids) THEN 'kept' ELSE 'pending' END,
                      decided_at = CASE WHEN id = ANY (c.kept_ids) THEN v_now END
     WHERE id = ANY (c.prize_ids);
    -- The cards are promised again (reserved + 1 each); a card the desk has counted out meanwhile
    -- breaks the stock's range check, and then nothing is undone.
    PERFORM gacha_stock_move_prizes(v_ids, v_tiers, 'reserved', NULL, NULL, v_now);
    UPDATE prize_conversions SET undone_at = v_now WHERE id = c.id;
  EXCEPTION WHEN check_violation THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNDO_UNAVAILABLE');
  END;
  RETURN jsonb_build_object('status', 'completed', 'replay', false, 'restored', v_n, 'total', c.total,
    'balance', wallet_balance(p_member));
END $$;

-- The old five-argument call, for instances still running the previous build during a rolling
-- deploy: it never converts a kept prize either. Remove it (DROP FUNCTION in a migration, and here) once no
-- instance of a build before 0007 can run.
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean,
  p_free_expiry interval, p_now timestamptz) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT prize_convert(p_member, p_prizes, p_auto, false, p_free_expiry, p_now)
$$;
