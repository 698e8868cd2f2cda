-- A prize the member kept for shipping is converted only when the request says so (issue 9: a bulk
-- conversion once converted kept cards too). The rule lives here, under the row locks, so that no
-- caller — the pages, the API, the deadline job — can get round it.
DROP FUNCTION IF EXISTS prize_convert(text, uuid[], boolean, interval, timestamptz);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean, p_include_kept boolean,
  p_free_expiry interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  p record; v_found int; v_open int; v_kept int; v_total int := 0; v_list jsonb := '[]'::jsonb; w record;
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
  -- The deadline job converts only what is still undecided and due, as seen under the row locks:
  -- a member who chose a moment ago keeps the choice.
  FOR p IN SELECT id, conversion_value FROM prizes
            WHERE id = ANY (p_prizes) AND member_id = p_member
              AND (NOT p_auto OR (status = 'pending' AND decide_by <= v_now))
            ORDER BY id LOOP
    UPDATE prizes SET status = 'converted', decided_at = v_now, auto_converted = p_auto WHERE id = p.id;
    IF p.conversion_value > 0 THEN
      PERFORM wallet_grant(p_member, 'free', p.conversion_value, v_now + p_free_expiry,
        CASE WHEN p_auto THEN 'prize_auto_conversion' ELSE 'prize_conversion' END,
        'conversion', 'convert:' || p.id, p.id::text, NULL, v_now);
    END IF;
    v_total := v_total + p.conversion_value;
    v_list := v_list || jsonb_build_object('prizeId', p.id, 'coins', p.conversion_value);
  END LOOP;
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member;
  RETURN jsonb_build_object('status', 'completed', 'converted', v_list, 'total', v_total,
    'balance', jsonb_build_object('paid', coalesce(w.paid, 0), 'free', coalesce(w.free, 0)));
END $$;
--> statement-breakpoint
-- The old five-argument call, for instances still running the previous build during a rolling
-- deploy: it never converts a kept prize either. Remove it in a later migration.
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean,
  p_free_expiry interval, p_now timestamptz) RETURNS jsonb
LANGUAGE sql AS $$
  SELECT prize_convert(p_member, p_prizes, p_auto, false, p_free_expiry, p_now)
$$;
