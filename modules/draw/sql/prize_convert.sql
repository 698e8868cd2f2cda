-- The draw module's prize conversion: a member's undecided (or, asked explicitly, kept) prizes become
-- free coins through the wallet's wallet_grant, all or none, under the prizes' row locks (decision 009).
-- The free coins' lifetime comes from the caller (FREE_COIN_EXPIRY_DAYS in server/config.ts), never
-- from here. Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Converting releases each prize's card from stock through the gacha module's gacha_stock_move_prizes.
--
-- A prize the member kept for shipping is converted only when the request says so (issue 9: a bulk
-- conversion once converted kept cards too). The rule lives here, under the row locks, so that no
-- caller — the pages, the API, the deadline job — can get round it.
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean, p_include_kept boolean,
  p_free_expiry interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  p record; v_found int; v_open int; v_kept int; v_total int := 0; v_list jsonb := '[]'::jsonb;
  v_ids uuid[] := '{}'; v_tiers text[] := '{}';
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
  FOR p IN SELECT id, tier_id, conversion_value FROM prizes
            WHERE id = ANY (p_prizes) AND member_id = p_member
              AND (NOT p_auto OR (status = 'pending' AND decide_by <= v_now)
                              OR (status = 'kept' AND keep_until <= v_now))
            ORDER BY id LOOP
    UPDATE prizes SET status = 'converted', decided_at = v_now, auto_converted = p_auto WHERE id = p.id;
    IF p.conversion_value > 0 THEN
      PERFORM wallet_grant(p_member, 'free', p.conversion_value, v_now + p_free_expiry,
        CASE WHEN p_auto THEN 'prize_auto_conversion' ELSE 'prize_conversion' END,
        'conversion', 'convert:' || p.id, p.id::text, NULL, v_now);
    END IF;
    v_total := v_total + p.conversion_value;
    v_list := v_list || jsonb_build_object('prizeId', p.id, 'coins', p.conversion_value);
    v_ids := v_ids || p.id; v_tiers := v_tiers || p.tier_id;
  END LOOP;
  -- A converted prize's card is no longer promised (decision 023): reserved − 1 per card, after the
  -- wallet (lock order: prizes → wallet → stock cards, these in id order), in this same transaction.
  PERFORM gacha_stock_move_prizes(v_ids, v_tiers, 'released', NULL, NULL, v_now);
  RETURN jsonb_build_object('status', 'completed', 'converted', v_list, 'total', v_total,
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
