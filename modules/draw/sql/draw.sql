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
           'kiriban', p.kiriban_no, 'personalKiriban', p.personal_kiriban_no, 'pitariOf', p.pitari_of,
           'ceilingNo', p.ceiling_no,
           'status', p.status, 'decideBy', p.decide_by)
         ORDER BY t.rank, p.position NULLS FIRST)
    INTO v_items
    FROM prizes p JOIN gacha_tiers t ON t.id = p.tier_id
   WHERE p.draw_id = p_draw;
  RETURN jsonb_build_object('status', 'completed', 'drawId', d.id, 'replay', p_replay, 'gachaId', d.gacha_id,
    'count', d.count, 'cost', d.cost, 'lastOne', d.last_one, 'createdAt', d.created_at,
    'items', coalesce(v_items, '[]'::jsonb),
    'balance', wallet_balance(d.member_id))
    || coalesce((SELECT jsonb_build_object('receipt', draw_receipt_fields(r)) FROM draw_receipts r WHERE r.draw_id = p_draw),
                '{}'::jsonb);
END $$;

-- A beacon draw's receipt as the answer carries it (the server adds the pack's commitment, the member's
-- pseudonym and the signature): the slots, the acceptance time to the millisecond, the target round, the
-- chain head it follows, and whether it is settled.
CREATE OR REPLACE FUNCTION draw_receipt_fields(r draw_receipts) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('slots', to_jsonb(r.slots),
    'acceptedAt', to_char(r.accepted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'round', r.round, 'afterHead', r.after_head, 'afterRound', r.after_round, 'settled', r.settled_at IS NOT NULL)
$$;

-- The acceptance of a beacon draw (decision 081), inside draw_execute's transaction after the coins and the
-- slots: claims the slots (no tier yet), marks the pack sold out when they were its last, pays, adds the
-- experience, and writes the receipt. The receipt's round is read last, under the pack's round lock in shared
-- mode (advisory lock 81/no): a close of round r takes it exclusively after close(r), so it waits for every
-- draw that may still target r, and every draw after it reads a later clock and targets a later round.
CREATE OR REPLACE FUNCTION draw_accept_beacon(p_member text, p_gacha text, p_no int, p_count int, p_draw uuid,
  p_pos int[], p_cost int, p_last_lot boolean, p_now timestamptz, p_test_now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  b record; h record; v_at timestamptz; v_ms numeric; v_round bigint; v_wallet jsonb; v_exp bigint;
BEGIN
  PERFORM gacha_claim_lots(p_gacha, p_pos, p_draw, p_member);
  IF p_last_lot THEN
    PERFORM gacha_mark_sold_out(p_gacha, coalesce(p_test_now, clock_timestamp()));
  END IF;
  v_wallet := wallet_spend(p_member, p_cost, 'draw', 'sales', 'draw:' || p_draw, p_draw::text, p_now);
  v_exp := progression_add_exp(p_member, p_cost, p_now);
  SELECT * INTO b FROM gacha_beacon_clock(p_gacha);
  IF b.period IS NULL THEN
    RAISE EXCEPTION 'draw_accept_beacon: % has no beacon terms', p_gacha;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(81, p_no);
  v_at := date_trunc('milliseconds', coalesce(p_test_now, clock_timestamp()));
  -- The first round r with close(r) = genesis + (r − 1) × period − margin strictly after v_at.
  v_ms := extract(epoch FROM v_at) * 1000 - b.genesis_time::numeric * 1000 + b.close_margin_ms;
  v_round := CASE WHEN v_ms < 0 THEN 1 ELSE floor(v_ms / (b.period * 1000))::bigint + 2 END;
  SELECT x.head, x.round INTO h FROM draw_beacon_heads x WHERE x.gacha_id = p_gacha ORDER BY x.round DESC LIMIT 1;
  INSERT INTO draw_receipts (draw_id, gacha_id, member_id, slots, accepted_at, round, after_head, after_round)
  VALUES (p_draw, p_gacha, p_member, (SELECT array_agg(x ORDER BY x) FROM unnest(p_pos) x), v_at, v_round,
          coalesce(h.head, ''), coalesce(h.round, 0));
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
-- * ピタリ賞 and 個人キリ番賞 (decision 088): a draw that takes a lot of a tier a ピタリ賞 rewards holds that tier's
--   lock from before its claim to its commit, and wins the ピタリ賞 when no lot of the tier is left unclaimed; a
--   member's own lots of the pack are counted under the wallet lock (gacha_member_draws).
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
  v_reserved record; v_exp bigint; v_beacon boolean; v_closed text; v_pitari text[]; v_extras int := 0; v_n_extra int;
  v_streak int := 0; v_ceilings int := 0; v_walk record;
  v_wait jsonb;
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
  -- Maintenance (docs/decisions/025) and the closure's sales stop (docs/decisions/085): read here, in the draw's
  -- own transaction, so a draw whose call starts after the switch or the stop committed is refused on every
  -- instance, whatever their caches say. One statement for both (a primary-key read of a one-row table and a
  -- partial unique index of at most one row): the draw's statement budget stays 18/19 (bench/budgets/draw.json).
  -- Not stored under the key (the member retries afterwards), but a retry of a draw that already completed
  -- still gets its first answer.
  v_closed := shop_sales_closed();
  IF v_closed IS NOT NULL THEN
    SELECT id, request_hash INTO d FROM draws WHERE member_id = p_member AND idem_key = p_key;
    IF FOUND AND d.request_hash = p_hash THEN
      RETURN draw_answer(d.id, true);
    END IF;
    RETURN jsonb_build_object('status', 'rejected', 'code', v_closed, 'details',
      CASE WHEN v_closed = 'MAINTENANCE' THEN shop_maintenance_details() ELSE shop_closure_details() END);
  END IF;
  IF p_count IS NULL OR NOT (p_count = ANY (g.draw_options)) THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'DRAW_COUNT_INVALID',
      'details', jsonb_build_object('options', to_jsonb(g.draw_options)));
  END IF;
  v_cost := g.price_per_draw * p_count;
  -- A beacon pack (decision 081): slots now, tiers when the receipt's round settles them.
  v_beacon := g.draw_mode = 'beacon';

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
  -- The waiting room (decision 087): only in the member's open window. Packs without one pay nothing (the flag
  -- comes with the terms); the cap is the per-member limit below, counted after the wallet lock.
  IF g.waiting_room THEN
    v_wait := waiting_room_draw_refusal(p_gacha, p_member, v_now);
    IF v_wait IS NOT NULL THEN
      RETURN draw_refuse(v_draw, v_wait->>'code', v_wait->'details');
    END IF;
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
  -- The member's lots of this pack so far: for the per-member limit, the 個人キリ番賞 (decision 088) and the
  -- 天井賞's streak (decision 089). Exact under the wallet lock: every earlier draw of this member has committed.
  IF g.per_member_limit IS NOT NULL OR g.personal_kiriban OR g.ceiling THEN
    SELECT lots, ceiling_streak, ceilings INTO v_used, v_streak, v_ceilings
      FROM gacha_member_draws WHERE gacha_id = p_gacha AND member_id = p_member;
    v_used := coalesce(v_used, 0);
    v_streak := coalesce(v_streak, 0);
    v_ceilings := coalesce(v_ceilings, 0);
    IF g.per_member_limit IS NOT NULL AND v_used + p_count > g.per_member_limit THEN
      RETURN draw_refuse(v_draw, 'DRAW_LIMIT_REACHED',
        jsonb_build_object('limit', g.per_member_limit, 'used', coalesce(v_used, 0)));
    END IF;
  END IF;

  -- 2. The lots (the gacha module's functions take and lock them).
  -- Calls as assignments, not SELECT … FROM or PERFORM: a function call with no table is a PL/pgSQL simple
  -- expression, evaluated without a statement of its own (the called function's statements run as before).
  v_reserved := gacha_reserve_lots(p_gacha, g.no, g.total_lots, p_count, CASE WHEN v_beacon THEN NULL ELSE g.kiriban_next END);
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
    IF g.kiriban_next IS NOT NULL AND NOT v_beacon THEN
      v_kiriban := gacha_kiriban_award(p_gacha, g.total_lots - v_n, p_count);
    END IF;
  END IF;

  -- ピタリ賞 (decision 088): the locks of the rewarded tiers among these lots, before the claim stamps them.
  IF g.pitari AND NOT v_beacon THEN
    v_pitari := gacha_pitari_lock(p_gacha, v_pos);
  END IF;

  IF v_beacon THEN
    PERFORM draw_accept_beacon(p_member, p_gacha, g.no, p_count, v_draw, v_pos, v_cost, v_last_lot, v_now, p_now);
    IF g.per_member_limit IS NOT NULL THEN
      INSERT INTO gacha_member_draws (gacha_id, member_id, lots) VALUES (p_gacha, p_member, p_count)
      ON CONFLICT (gacha_id, member_id) DO UPDATE SET lots = gacha_member_draws.lots + EXCLUDED.lots;
    END IF;
    RETURN draw_answer(v_draw, false);
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
    RETURNING id, tier_id, position, conversion_value, kiriban_no, personal_kiriban_no, pitari_of, ceiling_no, status,
              decide_by
  )
  SELECT jsonb_agg(jsonb_build_object(
           'prizeId', p.id, 'position', p.position, 'tierId', t.id, 'tierLabel', t.label, 'tierRank', t.rank,
           'effect', t.effect, 'cardName', t.card_name, 'imagePath', t.card_image_path, 'rarity', t.rarity,
           'cardGrade', t.card_grade, 'conversionValue', p.conversion_value, 'isLastOne', t.is_last_one,
           'kiriban', p.kiriban_no, 'personalKiriban', p.personal_kiriban_no, 'pitariOf', p.pitari_of,
           'ceilingNo', p.ceiling_no,
           'status', p.status, 'decideBy', p.decide_by)
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

  -- ピタリ賞: the rewarded tiers whose last lot this draw took (none of them is left unclaimed).
  IF cardinality(v_pitari) > 0 THEN
    v_pitari := gacha_pitari_emptied(p_gacha, v_pitari);
    IF cardinality(v_pitari) > 0 THEN
      INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, pitari_of, conversion_value, decide_by,
                          created_at)
      SELECT p_member, v_draw, p_gacha, t.id, NULL, t.pitari_of, t.conversion_value, v_now + p_decide_window,
             coalesce(p_now, clock_timestamp())
        FROM gacha_tiers t WHERE t.gacha_id = p_gacha AND t.pitari_of = ANY (v_pitari);
      v_extras := v_extras + cardinality(v_pitari);
    END IF;
  END IF;
  -- 個人キリ番賞: the member's own lot numbers v_used + 1 .. v_used + p_count.
  IF g.personal_kiriban THEN
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, personal_kiriban_no, conversion_value,
                        decide_by, created_at)
    SELECT p_member, v_draw, p_gacha, t.id, NULL, k, t.conversion_value, v_now + p_decide_window,
           coalesce(p_now, clock_timestamp())
      FROM gacha_tiers t, unnest(t.personal_kiriban_at) k
     WHERE t.gacha_id = p_gacha AND k > v_used AND k <= v_used + p_count;
    GET DIAGNOSTICS v_n_extra = ROW_COUNT;
    v_extras := v_extras + v_n_extra;
  END IF;

  -- 天井賞 (decision 089): the member's walk over this draw's lots from their streak; each 天井賞 numbered on
  -- from their last (a unique index backs once per number).
  IF g.ceiling THEN
    v_walk := gacha_ceiling_walk(p_gacha, v_pos, v_streak);
    IF v_walk.won > 0 THEN
      INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, ceiling_no, conversion_value, decide_by,
                          created_at)
      SELECT p_member, v_draw, p_gacha, t.id, NULL, v_ceilings + k, t.conversion_value, v_now + p_decide_window,
             coalesce(p_now, clock_timestamp())
        FROM gacha_tiers t, generate_series(1, v_walk.won) k
       WHERE t.gacha_id = p_gacha AND t.ceiling_after IS NOT NULL;
      v_extras := v_extras + v_walk.won;
    END IF;
    v_streak := v_walk.streak;
    v_ceilings := v_ceilings + v_walk.won;
  END IF;

  IF v_last_lot THEN
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
    SELECT p_member, v_draw, p_gacha, t.id, NULL, t.conversion_value, v_now + p_decide_window,
           coalesce(p_now, clock_timestamp())
      FROM gacha_tiers t WHERE t.gacha_id = p_gacha AND t.is_last_one;
    PERFORM gacha_mark_sold_out(p_gacha, coalesce(p_now, clock_timestamp()));
    IF g.ceiling THEN
      -- Nobody can reach a 天井賞 any more: the cards of those not given are no longer promised.
      PERFORM gacha_release_ceiling_stock(p_gacha,
        (SELECT count(*) FROM prizes WHERE gacha_id = p_gacha AND ceiling_no IS NOT NULL)::int,
        coalesce(p_now, clock_timestamp()));
    END IF;
    UPDATE draws SET last_one = true WHERE id = v_draw;
  END IF;

  v_wallet := wallet_spend(p_member, v_cost, 'draw', 'sales', 'draw:' || v_draw, v_draw::text, v_now);

  -- Experience: 1 per coin drawn (the progression module's table).
  v_exp := progression_add_exp(p_member, v_cost, v_now);

  IF g.per_member_limit IS NOT NULL OR g.personal_kiriban OR g.ceiling THEN
    INSERT INTO gacha_member_draws (gacha_id, member_id, lots, ceiling_streak, ceilings)
    VALUES (p_gacha, p_member, p_count, v_streak, v_ceilings)
    ON CONFLICT (gacha_id, member_id) DO UPDATE SET lots = gacha_member_draws.lots + EXCLUDED.lots,
      ceiling_streak = EXCLUDED.ceiling_streak, ceilings = EXCLUDED.ceilings;
  END IF;

  IF v_last_lot OR cardinality(v_kiriban) > 0 OR v_extras > 0 THEN
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

-- The settlement of one closed round of a beacon pack (decision 081, §4): the caller has fetched and verified
-- the settling round's beacon and computed, with oripa-beacon-select-v1, each receipt's tiers in order (p_draws:
-- [{"drawId": …, "tiers": [lot 0's tier, lot 1's …]}], the head's receipts by first slot). In one transaction:
-- each slot gets its tier (gacha_settle_slots refuses a slot not this draw's, gacha_check_settled_quantities a tier
-- beyond its quantity), each
-- lot its prize, each sale number reached its キリ番賞, the draw of the pack's last lot the ラストワン賞. The head
-- row is the exactly-once guard: a second instance, a repeated round or a restart finds it settled and
-- answers 'already'; a head waits ('waiting') until the pack's earlier heads are settled.
CREATE OR REPLACE FUNCTION draw_settle_round(p_gacha text, p_round bigint, p_signature text, p_randomness text,
  p_draws jsonb, p_decide_window interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, clock_timestamp());
  h record; e record; r record; v_before int; v_n int; v_total int; v_status text; v_kiriban int[];
  v_settled uuid[] := '{}'; v_release boolean := false;
BEGIN
  SELECT * INTO h FROM draw_beacon_heads x WHERE x.gacha_id = p_gacha AND x.round = p_round FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'draw_settle_round: % has no head for round %', p_gacha, p_round USING ERRCODE = '22023';
  END IF;
  IF h.settled_at IS NOT NULL THEN
    RETURN jsonb_build_object('status', 'already');
  END IF;
  IF EXISTS (SELECT 1 FROM draw_beacon_heads x WHERE x.gacha_id = p_gacha AND x.round < p_round AND x.settled_at IS NULL) THEN
    RETURN jsonb_build_object('status', 'waiting');
  END IF;
  IF (SELECT array_agg(a.x->>'drawId' ORDER BY a.ord) FROM jsonb_array_elements(p_draws) WITH ORDINALITY AS a(x, ord))
     IS DISTINCT FROM (SELECT array_agg(x.draw_id::text ORDER BY x.slots[1]) FROM draw_receipts x
                        WHERE x.gacha_id = p_gacha AND x.round = p_round) THEN
    RAISE EXCEPTION 'draw_settle_round: the draws given are not the receipts of round % of %', p_round, p_gacha
      USING ERRCODE = '22023';
  END IF;
  SELECT * INTO e FROM gacha_lock_for_settlement(p_gacha);
  v_total := e.total_lots;
  v_status := e.status;
  v_before := gacha_settled_count(p_gacha);
  FOR e IN SELECT (a.x->>'drawId')::uuid AS draw_id, ARRAY(SELECT jsonb_array_elements_text(a.x->'tiers')) AS tiers
             FROM jsonb_array_elements(p_draws) WITH ORDINALITY AS a(x, ord) ORDER BY a.ord LOOP
    SELECT * INTO r FROM draw_receipts x WHERE x.draw_id = e.draw_id;
    v_n := cardinality(r.slots);
    PERFORM gacha_settle_slots(p_gacha, r.draw_id, r.slots, e.tiers, v_now, v_before);
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
    SELECT r.member_id, r.draw_id, p_gacha, u.tier, u.pos, t.conversion_value, v_now + p_decide_window, v_now
      FROM unnest(r.slots, e.tiers) AS u(pos, tier) JOIN gacha_tiers t ON t.id = u.tier;
    -- Sale numbers v_before + 1 .. v_before + n: the settled order, earlier settlements first.
    v_kiriban := gacha_kiriban_award(p_gacha, v_before, v_n);
    IF cardinality(v_kiriban) > 0 THEN
      INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, kiriban_no, conversion_value, decide_by, created_at)
      SELECT r.member_id, r.draw_id, p_gacha, t.id, NULL, k, t.conversion_value, v_now + p_decide_window, v_now
        FROM unnest(v_kiriban) k JOIN gacha_tiers t ON t.gacha_id = p_gacha AND k = ANY (t.kiriban_at);
    END IF;
    IF v_before + v_n = v_total THEN
      INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
      SELECT r.member_id, r.draw_id, p_gacha, t.id, NULL, t.conversion_value, v_now + p_decide_window, v_now
        FROM gacha_tiers t WHERE t.gacha_id = p_gacha AND t.is_last_one;
      UPDATE draws SET last_one = true WHERE id = r.draw_id;
    END IF;
    UPDATE draw_receipts SET settled_at = v_now WHERE draw_id = r.draw_id;
    v_settled := v_settled || r.draw_id;
    v_before := v_before + v_n;
  END LOOP;
  PERFORM gacha_check_settled_quantities(p_gacha);
  UPDATE draw_beacon_heads SET settled_at = v_now, beacon_signature = p_signature, beacon_randomness = p_randomness
   WHERE gacha_id = p_gacha AND round = p_round;
  -- A pack ended before it sold out is revealed when its last receipt is settled; the caller then frees the
  -- cards of the lots nobody drew (releaseStock).
  IF v_status = 'ended' AND NOT EXISTS (SELECT 1 FROM draw_receipts x WHERE x.gacha_id = p_gacha AND x.settled_at IS NULL) THEN
    PERFORM gacha_reveal_ended_beacon_pack(p_gacha, v_now);
    v_release := true;
  END IF;
  RETURN jsonb_build_object('status', 'settled', 'draws', to_jsonb(v_settled), 'releaseStock', v_release);
END $$;
