-- The draw module's SQL: a draw in one database call and one transaction, all or nothing,
-- idempotent (docs/decisions/006). Lock order everywhere: the member's wallet row → the pack row
-- (only at the end of a pack) → lots. Coins move only through the wallet's functions, lots only
-- through the gacha module's, experience through progression's. Every function takes p_now so tests
-- can move time (NULL = now()). Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- The answer for a draw (fresh or replayed): the stored refusal, or the prizes with their tiers.
CREATE OR REPLACE FUNCTION draw_answer(p_draw uuid, p_replay boolean) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  d record; v_items jsonb;
BEGIN
  SELECT * INTO d FROM draws WHERE id = p_draw;
  IF d.status = 'refused' THEN
    RETURN jsonb_build_object('status', 'refused', 'drawId', d.id, 'replay', p_replay, 'gachaId', d.gacha_id,
      'count', d.count, 'code', d.error_code, 'details', coalesce(d.error_details, '{}'::jsonb));
  END IF;
  SELECT jsonb_agg(jsonb_build_object(
           'prizeId', p.id, 'position', p.position, 'tierId', t.id, 'tierLabel', t.label, 'tierRank', t.rank,
           'effect', t.effect, 'cardName', t.card_name, 'imagePath', t.card_image_path, 'rarity', t.rarity,
           'cardGrade', t.card_grade, 'conversionValue', p.conversion_value, 'isLastOne', t.is_last_one,
           'kiriban', p.kiriban_no, 'status', p.status, 'decideBy', p.decide_by)
         ORDER BY t.rank, p.position NULLS FIRST)
    INTO v_items
    FROM prizes p JOIN gacha_tiers t ON t.id = p.tier_id
   WHERE p.draw_id = p_draw;
  RETURN jsonb_build_object('status', 'completed', 'drawId', d.id, 'replay', p_replay, 'gachaId', d.gacha_id,
    'count', d.count, 'cost', d.cost, 'lastOne', d.last_one, 'createdAt', d.created_at,
    'items', coalesce(v_items, '[]'::jsonb),
    'balance', wallet_balance(d.member_id));
END $$;

CREATE OR REPLACE FUNCTION draw_refuse(p_draw uuid, p_code text, p_details jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE draws SET status = 'refused', error_code = p_code, error_details = p_details WHERE id = p_draw;
  RETURN draw_answer(p_draw, false);
END $$;

-- One draw: p_count lots of p_gacha for p_count × price coins, all or nothing, keyed by
-- (p_member, p_key). Answers jsonb with status 'completed', 'refused' (stored, replayed on retry)
-- or 'rejected' (not stored: unknown pack, staff, bad count, key reused with another request).
--
-- Claim mechanism (measured in docs/research/2026-11-21-draw-mechanisms.md, decision 006):
-- * normal mode: positions come from the pack's own sequence (no hot row); the lots are locked
--   NOWAIT. If one was taken meanwhile, or the sequence has run out (this draw might be the pack's
--   last), the function raises 40001/55P03 and the caller retries the whole call.
-- * end of the pack (the sequence has run out): draws serialise on the pack row, lock every lot
--   still unclaimed (waiting for in-flight claims to commit), take the first N, and the draw that
--   takes the last lot also gets the ラストワン賞 and marks the pack sold out.
-- * キリ番賞 (decision 027): a draw whose positions reach the pack's next unawarded キリ番 is serialised
--   on the pack row and counts the lots sold before it (gacha_reserve_lots); at the end of the pack the
--   count is already exact. The numbers it wins come back in v_kiriban: one extra prize each.
--
-- Generic plans (decision 079): each statement below is planned once per connection, not on every call.
-- Under the default plan_cache_mode PostgreSQL re-planned two of them on every draw (a custom plan no
-- cheaper than the generic one), about a tenth of the database's CPU per draw; the setting holds for the
-- functions this one calls too. modules/draw/write-path.db.test.ts counts the planner's runs per draw.
CREATE OR REPLACE FUNCTION draw_execute(p_member text, p_gacha text, p_count int, p_key text, p_hash text,
  p_rank int, p_decide_window interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  g record; v_role text; v_draw uuid; d record; v_cost int;
  v_pos int[]; v_final record; v_n int; v_last_lot boolean := false; v_kiriban int[];
  v_available int; v_used int; v_limits record; v_spent bigint; v_month timestamptz; v_items jsonb; v_wallet jsonb;
  v_reserved record; v_exp bigint;
BEGIN
  SELECT * INTO g FROM gacha_draw_terms(p_gacha);
  IF NOT FOUND OR g.status = 'draft' THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'GACHA_NOT_FOUND', 'details', '{}'::jsonb);
  END IF;
  v_role := identity_member_role(p_member);
  IF v_role IS NULL THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNAUTHENTICATED', 'details', '{}'::jsonb);
  END IF;
  -- Staff of either role (issue 12: 'admin' and 'staff') know too much to draw fairly.
  IF v_role IN ('admin', 'staff') THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'STAFF_CANNOT_DRAW', 'details', '{}'::jsonb);
  END IF;
  -- Maintenance (docs/decisions/025): read here, in the draw's own transaction, so a draw whose call
  -- starts after the switch committed is refused on every instance, whatever their caches say. One
  -- primary-key read of a one-row table; not stored under the key (the member retries afterwards),
  -- but a retry of a draw that already completed still gets its first answer.
  IF shop_in_maintenance() THEN
    SELECT id, request_hash INTO d FROM draws WHERE member_id = p_member AND idem_key = p_key;
    IF FOUND AND d.request_hash = p_hash THEN
      RETURN draw_answer(d.id, true);
    END IF;
    RETURN jsonb_build_object('status', 'rejected', 'code', 'MAINTENANCE', 'details', shop_maintenance_details());
  END IF;
  IF p_count IS NULL OR NOT (p_count = ANY (g.draw_options)) THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'DRAW_COUNT_INVALID',
      'details', jsonb_build_object('options', to_jsonb(g.draw_options)));
  END IF;
  v_cost := g.price_per_draw * p_count;

  -- Idempotency: the first request with a key inserts; a concurrent duplicate waits on the unique
  -- index until it commits and then replays its answer.
  INSERT INTO draws (member_id, idem_key, request_hash, gacha_id, count, cost, status, created_at)
  VALUES (p_member, p_key, p_hash, p_gacha, p_count, v_cost, 'completed', v_now)
  ON CONFLICT (member_id, idem_key) DO NOTHING
  RETURNING id INTO v_draw;
  IF v_draw IS NULL THEN
    SELECT id, request_hash INTO d FROM draws WHERE member_id = p_member AND idem_key = p_key;
    IF d.request_hash <> p_hash THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'IDEMPOTENCY_KEY_REUSED', 'details', '{}'::jsonb);
    END IF;
    RETURN draw_answer(d.id, true);
  END IF;

  IF g.status = 'sold_out' THEN
    RETURN draw_refuse(v_draw, 'SOLD_OUT', jsonb_build_object('remaining', 0));
  END IF;
  IF g.status = 'ended' OR (g.sale_ends_at IS NOT NULL AND g.sale_ends_at <= v_now) THEN
    RETURN draw_refuse(v_draw, 'GACHA_ENDED', '{}'::jsonb);
  END IF;
  IF g.status <> 'on_sale' OR (g.sale_starts_at IS NOT NULL AND g.sale_starts_at > v_now) THEN
    RETURN draw_refuse(v_draw, 'GACHA_NOT_ON_SALE', jsonb_build_object('startsAt', g.sale_starts_at));
  END IF;
  IF g.min_rank IS NOT NULL AND coalesce(p_rank, 0) < g.min_rank THEN
    RETURN draw_refuse(v_draw, 'RANK_TOO_LOW', jsonb_build_object('minRank', g.min_rank, 'rank', coalesce(p_rank, 0)));
  END IF;

  -- Self-limits (docs/decisions/035): one primary-key read of the limits module's row (none for most
  -- members). A self-exclusion refuses before anything is locked.
  SELECT * INTO v_limits FROM limits_draw_terms(p_member, v_now);
  IF v_limits.excluded_until IS NOT NULL THEN
    RETURN draw_refuse(v_draw, 'SELF_EXCLUDED', jsonb_build_object('excludedUntil', v_limits.excluded_until));
  END IF;

  -- 1. The wallet (locked until commit; a member's draws run one at a time).
  v_available := wallet_lock_available(p_member, v_now);
  -- The monthly draw-spend limit, counted after the wallet lock: every earlier draw of this member has
  -- committed, so two draws at once cannot both pass it. Only members with a limit pay for the read (this
  -- member's completed draws of the Japan-time month, on draws_member_idx). No upper bound at v_now: a draw
  -- that took the lock first may have started (and be stamped) after this one did.
  IF v_limits.draw_limit_coins IS NOT NULL THEN
    v_month := date_trunc('month', v_now AT TIME ZONE 'Asia/Tokyo') AT TIME ZONE 'Asia/Tokyo';
    SELECT coalesce(sum(cost), 0) INTO v_spent FROM draws
     WHERE member_id = p_member AND created_at >= v_month
       AND status = 'completed' AND id <> v_draw;
    IF v_spent + v_cost > v_limits.draw_limit_coins THEN
      RETURN draw_refuse(v_draw, 'DRAW_SPEND_LIMIT_REACHED', jsonb_build_object('limitCoins',
        v_limits.draw_limit_coins, 'usedCoins', v_spent, 'remainingCoins', greatest(0, v_limits.draw_limit_coins - v_spent),
        'required', v_cost));
    END IF;
  END IF;
  IF v_available < v_cost THEN
    RETURN draw_refuse(v_draw, 'INSUFFICIENT_COINS', jsonb_build_object('required', v_cost, 'balance', v_available));
  END IF;
  IF g.per_member_limit IS NOT NULL THEN
    SELECT lots INTO v_used FROM gacha_member_draws WHERE gacha_id = p_gacha AND member_id = p_member;
    IF coalesce(v_used, 0) + p_count > g.per_member_limit THEN
      RETURN draw_refuse(v_draw, 'DRAW_LIMIT_REACHED',
        jsonb_build_object('limit', g.per_member_limit, 'used', coalesce(v_used, 0)));
    END IF;
  END IF;

  -- 2. The lots (the gacha module's functions take and lock them).
  -- Calls as assignments, not SELECT … FROM or PERFORM: a function call with no table is a PL/pgSQL simple
  -- expression, evaluated without a statement of its own (the called function's statements run as before).
  v_reserved := gacha_reserve_lots(p_gacha, g.no, g.total_lots, p_count, g.kiriban_next);
  v_pos := v_reserved.positions;
  v_kiriban := v_reserved.kiriban;
  IF v_pos IS NULL THEN
    -- The end of the pack: the pack row, then every unclaimed lot.
    SELECT * INTO v_final FROM gacha_lock_final_lots(p_gacha);
    IF v_final.pack_status = 'sold_out' THEN
      RETURN draw_refuse(v_draw, 'SOLD_OUT', jsonb_build_object('remaining', 0));
    END IF;
    IF v_final.pack_status <> 'on_sale' THEN
      RETURN draw_refuse(v_draw, 'GACHA_ENDED', '{}'::jsonb);
    END IF;
    v_n := coalesce(cardinality(v_final.unclaimed), 0);
    IF v_n = 0 THEN
      RETURN draw_refuse(v_draw, 'SOLD_OUT', jsonb_build_object('remaining', 0));
    END IF;
    IF v_n < p_count THEN
      RETURN draw_refuse(v_draw, 'NOT_ENOUGH_LOTS', jsonb_build_object('remaining', v_n));
    END IF;
    v_pos := v_final.unclaimed[1:p_count];
    v_last_lot := (v_n = p_count);
    -- Every claim in flight has committed (the blocking lock): the lots sold are total − unclaimed.
    IF g.kiriban_next IS NOT NULL THEN
      v_kiriban := gacha_kiriban_award(p_gacha, g.total_lots - v_n, p_count);
    END IF;
  END IF;

  -- 3. Claim, award, pay: all in this transaction.
  -- prizes.created_at is the moment of the claim (after any wait), so ordering draws by it puts
  -- the draw that took the final lot last in the published log.
  -- The answer's items are built from the inserted rows in the same statement (draw_answer would read
  -- them back: docs/decisions/046); a draw that also wins a キリ番賞 or the ラストワン賞 answers through
  -- draw_answer below instead.
  WITH claimed AS (
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
    SELECT p_member, v_draw, p_gacha, c.lot_tier_id, c.lot_position, t.conversion_value, v_now + p_decide_window,
           coalesce(p_now, clock_timestamp())
      FROM gacha_claim_lots(p_gacha, v_pos, v_draw, p_member) c JOIN gacha_tiers t ON t.id = c.lot_tier_id
    RETURNING id, tier_id, position, conversion_value, kiriban_no, status, decide_by
  )
  SELECT jsonb_agg(jsonb_build_object(
           'prizeId', p.id, 'position', p.position, 'tierId', t.id, 'tierLabel', t.label, 'tierRank', t.rank,
           'effect', t.effect, 'cardName', t.card_name, 'imagePath', t.card_image_path, 'rarity', t.rarity,
           'cardGrade', t.card_grade, 'conversionValue', p.conversion_value, 'isLastOne', t.is_last_one,
           'kiriban', p.kiriban_no, 'status', p.status, 'decideBy', p.decide_by)
         ORDER BY t.rank, p.position NULLS FIRST)
    INTO v_items
    FROM claimed p JOIN gacha_tiers t ON t.id = p.tier_id;

  IF cardinality(v_kiriban) > 0 THEN
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, kiriban_no, conversion_value, decide_by,
                        created_at)
    SELECT p_member, v_draw, p_gacha, t.id, NULL, k, t.conversion_value, v_now + p_decide_window,
           coalesce(p_now, clock_timestamp())
      FROM unnest(v_kiriban) k JOIN gacha_tiers t ON t.gacha_id = p_gacha AND k = ANY (t.kiriban_at);
  END IF;

  IF v_last_lot THEN
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
    SELECT p_member, v_draw, p_gacha, t.id, NULL, t.conversion_value, v_now + p_decide_window,
           coalesce(p_now, clock_timestamp())
      FROM gacha_tiers t WHERE t.gacha_id = p_gacha AND t.is_last_one;
    PERFORM gacha_mark_sold_out(p_gacha, coalesce(p_now, clock_timestamp()));
    UPDATE draws SET last_one = true WHERE id = v_draw;
  END IF;

  v_wallet := wallet_spend(p_member, v_cost, 'draw', 'sales', 'draw:' || v_draw, v_draw::text, v_now);

  -- Experience: 1 per coin drawn (the progression module's table).
  v_exp := progression_add_exp(p_member, v_cost, v_now);

  IF g.per_member_limit IS NOT NULL THEN
    INSERT INTO gacha_member_draws (gacha_id, member_id, lots) VALUES (p_gacha, p_member, p_count)
    ON CONFLICT (gacha_id, member_id) DO UPDATE SET lots = gacha_member_draws.lots + EXCLUDED.lots;
  END IF;

  IF v_last_lot OR cardinality(v_kiriban) > 0 THEN
    RETURN draw_answer(v_draw, false);
  END IF;
  -- What draw_answer(v_draw, false) answers, from what this call wrote: the draw row's values and the
  -- wallet as wallet_spend left it (nothing after it touches the wallet). modules/draw/write-path.db.test.ts
  -- compares the two.
  RETURN jsonb_build_object('status', 'completed', 'drawId', v_draw, 'replay', false, 'gachaId', p_gacha,
    'count', p_count, 'cost', v_cost, 'lastOne', false, 'createdAt', v_now,
    'items', coalesce(v_items, '[]'::jsonb),
    'balance', jsonb_build_object('paid', v_wallet->'paid', 'free', v_wallet->'free'));
END $$;

-- The API's draw in ONE round trip: the session is read by the identity module's function in the
-- same call (docs/decisions/006). A session due for its daily refresh answers refresh = true, and the
-- server then lets better-auth handle the request the slower way.
CREATE OR REPLACE FUNCTION draw_execute_for_session(p_token text, p_refresh_before interval, p_gacha text, p_count int,
  p_key text, p_hash text, p_rank int, p_decide_window interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v record;
BEGIN
  v := identity_session_member(p_token, coalesce(p_now, now()), p_refresh_before); -- an expression, not a statement
  IF v.member_id IS NULL THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNAUTHENTICATED', 'details', '{}'::jsonb);
  END IF;
  IF v.refresh THEN
    RETURN jsonb_build_object('status', 'refresh');
  END IF;
  RETURN draw_execute(v.member_id, p_gacha, p_count, p_key, p_hash, p_rank, p_decide_window, p_now);
END $$;
