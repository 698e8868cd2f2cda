-- The wallet's and the draw's rules that must hold under concurrency live in the database, one
-- function per operation, so a draw is ONE round trip and one transaction (docs/decisions/006).
-- Lock order everywhere: the member's wallet row → the pack row (only at the end of a pack) → lots.
-- Every function takes p_now so tests can move time; NULL means now().

-- The ledger is append-only: corrections are new entries.
CREATE OR REPLACE FUNCTION coin_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'coin_ledger is append-only' USING ERRCODE = 'P0001';
END $$;
--> statement-breakpoint
CREATE TRIGGER coin_ledger_no_update_delete BEFORE UPDATE OR DELETE ON coin_ledger
  FOR EACH ROW EXECUTE FUNCTION coin_ledger_append_only();
--> statement-breakpoint
-- Expires a member's due grants (the ledger gets one expiry entry per grant). Locks the wallet.
CREATE OR REPLACE FUNCTION wallet_expire_member(p_member text, p_now timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record; g record; v_count int := 0;
BEGIN
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member FOR UPDATE;
  IF NOT FOUND THEN RETURN 0; END IF;
  FOR g IN SELECT id, kind, remaining FROM coin_grants
            WHERE member_id = p_member AND remaining > 0 AND expires_at <= v_now
            ORDER BY expires_at, id FOR UPDATE LOOP
    IF g.kind = 'paid' THEN w.paid := w.paid - g.remaining; ELSE w.free := w.free - g.remaining; END IF;
    UPDATE coin_grants SET remaining = 0 WHERE id = g.id;
    INSERT INTO coin_ledger (member_id, kind, amount, counter_account, reason, idem_key, seq, grant_id, paid_after, free_after, created_at)
    VALUES (p_member, g.kind, -g.remaining, 'expired', 'expiry', 'expiry:' || g.id, 0, g.id, w.paid, w.free, v_now);
    v_count := v_count + 1;
  END LOOP;
  IF v_count > 0 THEN
    UPDATE wallets SET paid = w.paid, free = w.free, updated_at = v_now WHERE member_id = p_member;
  END IF;
  RETURN v_count;
END $$;
--> statement-breakpoint
-- The expiry job: up to p_limit members with due grants. Returns the number of grants expired.
CREATE OR REPLACE FUNCTION wallet_expire_due(p_now timestamptz, p_limit int) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  m record; v_total int := 0;
BEGIN
  FOR m IN SELECT DISTINCT member_id FROM coin_grants
            WHERE remaining > 0 AND expires_at <= v_now LIMIT p_limit LOOP
    v_total := v_total + wallet_expire_member(m.member_id, v_now);
  END LOOP;
  RETURN v_total;
END $$;
--> statement-breakpoint
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
--> statement-breakpoint
-- Credits coins as a new grant. Idempotent on p_idem: a repeat returns the first grant.
CREATE OR REPLACE FUNCTION wallet_grant(p_member text, p_kind text, p_amount int, p_expires_at timestamptz,
  p_reason text, p_counter text, p_idem text, p_ref text, p_memo text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
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
--> statement-breakpoint
-- Locks the wallet, expires what is due and returns the spendable balance (0 without a wallet).
CREATE OR REPLACE FUNCTION wallet_lock_available(p_member text, p_now timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  w record;
BEGIN
  SELECT paid, free INTO w FROM wallets WHERE member_id = p_member FOR UPDATE;
  IF NOT FOUND THEN RETURN 0; END IF;
  IF EXISTS (SELECT 1 FROM coin_grants WHERE member_id = p_member AND remaining > 0 AND expires_at <= v_now) THEN
    PERFORM wallet_expire_member(p_member, v_now);
    SELECT paid, free INTO w FROM wallets WHERE member_id = p_member;
  END IF;
  RETURN w.paid + w.free;
END $$;
--> statement-breakpoint
-- Spends p_amount: free coins first, soonest expiry first; then paid coins, oldest first. One ledger
-- entry per grant touched. The caller holds the wallet lock (wallet_lock_available) and has checked
-- the balance; a shortfall here is a broken invariant and aborts the transaction.
CREATE OR REPLACE FUNCTION wallet_spend(p_member text, p_amount int, p_reason text, p_counter text,
  p_idem text, p_ref text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
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
            WHERE member_id = p_member AND remaining > 0 AND expires_at > v_now
            ORDER BY (kind = 'paid'), CASE WHEN kind = 'free' THEN expires_at END, granted_at, id
            FOR UPDATE LOOP
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
--> statement-breakpoint
-- The answer for a draw (fresh or replayed): the stored refusal, or the prizes with their tiers.
CREATE OR REPLACE FUNCTION draw_answer(p_draw uuid, p_replay boolean) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
DECLARE
  d record; w record; v_items jsonb;
BEGIN
  SELECT * INTO d FROM draws WHERE id = p_draw;
  SELECT paid, free INTO w FROM wallets WHERE member_id = d.member_id;
  IF d.status = 'refused' THEN
    RETURN jsonb_build_object('status', 'refused', 'drawId', d.id, 'replay', p_replay, 'gachaId', d.gacha_id,
      'count', d.count, 'code', d.error_code, 'details', coalesce(d.error_details, '{}'::jsonb));
  END IF;
  SELECT jsonb_agg(jsonb_build_object(
           'prizeId', p.id, 'position', p.position, 'tierId', t.id, 'tierLabel', t.label, 'tierRank', t.rank,
           'effect', t.effect, 'cardName', t.card_name, 'imagePath', t.card_image_path, 'rarity', t.rarity,
           'cardGrade', t.card_grade, 'conversionValue', p.conversion_value, 'isLastOne', t.is_last_one,
           'status', p.status, 'decideBy', p.decide_by)
         ORDER BY t.rank, p.position NULLS FIRST)
    INTO v_items
    FROM prizes p JOIN gacha_tiers t ON t.id = p.tier_id
   WHERE p.draw_id = p_draw;
  RETURN jsonb_build_object('status', 'completed', 'drawId', d.id, 'replay', p_replay, 'gachaId', d.gacha_id,
    'count', d.count, 'cost', d.cost, 'lastOne', d.last_one, 'createdAt', d.created_at,
    'items', coalesce(v_items, '[]'::jsonb),
    'balance', jsonb_build_object('paid', coalesce(w.paid, 0), 'free', coalesce(w.free, 0)));
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION draw_refuse(p_draw uuid, p_code text, p_details jsonb) RETURNS jsonb
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE draws SET status = 'refused', error_code = p_code, error_details = p_details WHERE id = p_draw;
  RETURN draw_answer(p_draw, false);
END $$;
--> statement-breakpoint
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
CREATE OR REPLACE FUNCTION draw_execute(p_member text, p_gacha text, p_count int, p_key text, p_hash text,
  p_rank int, p_decide_window interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  g record; v_role text; v_draw uuid; d record; v_cost int; v_seq regclass; v_last bigint;
  v_want int[]; v_pos int[]; v_free int[]; v_n int; v_final boolean := false; v_endgame boolean := false;
  v_available int; v_used int; v_status text;
BEGIN
  SELECT id, no, status, price_per_draw, total_lots, draw_options, per_member_limit, min_rank, sale_starts_at, sale_ends_at
    INTO g FROM gachas WHERE id = p_gacha;
  IF NOT FOUND OR g.status = 'draft' THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'GACHA_NOT_FOUND', 'details', '{}'::jsonb);
  END IF;
  SELECT role INTO v_role FROM users WHERE id = p_member;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNAUTHENTICATED', 'details', '{}'::jsonb);
  END IF;
  IF v_role = 'admin' THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'STAFF_CANNOT_DRAW', 'details', '{}'::jsonb);
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

  -- 1. The wallet (locked until commit; a member's draws run one at a time).
  v_available := wallet_lock_available(p_member, v_now);
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

  -- 2. The lots.
  v_seq := format('gacha_pos_%s', g.no)::regclass;
  v_last := coalesce(pg_sequence_last_value(v_seq), 0);
  IF v_last + p_count <= g.total_lots THEN
    SELECT array_agg(nextval(v_seq)::int) INTO v_want FROM generate_series(1, p_count);
    IF (SELECT max(x) FROM unnest(v_want) x) <= g.total_lots THEN
      -- By primary key (not the partial index, whose statistics lag behind a fresh pack); a lot
      -- already claimed is locked too but not counted, and the draw retries.
      SELECT array_agg(position ORDER BY position) FILTER (WHERE s.draw_id IS NULL) INTO v_pos FROM (
        SELECT position, draw_id FROM gacha_lots
         WHERE gacha_id = p_gacha AND position = ANY (v_want)
         ORDER BY position FOR UPDATE NOWAIT) s;
      -- With the lots locked: still ours, the pack not at its end, and not ended meanwhile (endPack
      -- locks every unclaimed lot, so it either waits for this draw or this draw sees it).
      IF coalesce(cardinality(v_pos), 0) < p_count
         OR coalesce(pg_sequence_last_value(v_seq), 0) >= g.total_lots
         OR (SELECT status FROM gachas WHERE id = p_gacha) <> 'on_sale' THEN
        RAISE EXCEPTION 'draw: retry at the end of the pack' USING ERRCODE = '40001';
      END IF;
    ELSE
      v_endgame := true;
    END IF;
  ELSE
    v_endgame := true;
  END IF;

  IF v_endgame THEN
    PERFORM 1 FROM gachas WHERE id = p_gacha FOR NO KEY UPDATE;
    -- The status may have changed while this draw waited (sold out, or ended by endPack).
    SELECT status INTO v_status FROM gachas WHERE id = p_gacha;
    IF v_status = 'sold_out' THEN
      RETURN draw_refuse(v_draw, 'SOLD_OUT', jsonb_build_object('remaining', 0));
    END IF;
    IF v_status <> 'on_sale' THEN
      RETURN draw_refuse(v_draw, 'GACHA_ENDED', '{}'::jsonb);
    END IF;
    SELECT array_agg(position ORDER BY position) INTO v_free FROM (
      SELECT position FROM gacha_lots WHERE gacha_id = p_gacha AND draw_id IS NULL
       ORDER BY position FOR UPDATE) s;
    v_n := coalesce(cardinality(v_free), 0);
    IF v_n = 0 THEN
      RETURN draw_refuse(v_draw, 'SOLD_OUT', jsonb_build_object('remaining', 0));
    END IF;
    IF v_n < p_count THEN
      RETURN draw_refuse(v_draw, 'NOT_ENOUGH_LOTS', jsonb_build_object('remaining', v_n));
    END IF;
    v_pos := v_free[1:p_count];
    v_final := (v_n = p_count);
  END IF;

  -- 3. Claim, award, pay: all in this transaction.
  -- prizes.created_at is the moment of the claim (after any wait), so ordering draws by it puts
  -- the draw that took the final lot last in the published log.
  WITH claimed AS (
    UPDATE gacha_lots SET draw_id = v_draw, member_id = p_member
     WHERE gacha_id = p_gacha AND position = ANY (v_pos)
    RETURNING position, tier_id)
  INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
  SELECT p_member, v_draw, p_gacha, c.tier_id, c.position, t.conversion_value, v_now + p_decide_window,
         coalesce(p_now, clock_timestamp())
    FROM claimed c JOIN gacha_tiers t ON t.id = c.tier_id;

  IF v_final THEN
    INSERT INTO prizes (member_id, draw_id, gacha_id, tier_id, position, conversion_value, decide_by, created_at)
    SELECT p_member, v_draw, p_gacha, t.id, NULL, t.conversion_value, v_now + p_decide_window,
           coalesce(p_now, clock_timestamp())
      FROM gacha_tiers t WHERE t.gacha_id = p_gacha AND t.is_last_one;
    UPDATE gachas SET status = 'sold_out', remaining_lots = 0, sold_out_at = coalesce(p_now, clock_timestamp()),
           revealed_at = coalesce(p_now, clock_timestamp()) WHERE id = p_gacha;
    UPDATE draws SET last_one = true WHERE id = v_draw;
  END IF;

  PERFORM wallet_spend(p_member, v_cost, 'draw', 'sales', 'draw:' || v_draw, v_draw::text, v_now);

  INSERT INTO member_progress (member_id, exp, updated_at) VALUES (p_member, v_cost, v_now)
  ON CONFLICT (member_id) DO UPDATE SET exp = member_progress.exp + EXCLUDED.exp, updated_at = EXCLUDED.updated_at;

  IF g.per_member_limit IS NOT NULL THEN
    INSERT INTO gacha_member_draws (gacha_id, member_id, lots) VALUES (p_gacha, p_member, p_count)
    ON CONFLICT (gacha_id, member_id) DO UPDATE SET lots = gacha_member_draws.lots + EXCLUDED.lots;
  END IF;

  RETURN draw_answer(v_draw, false);
END $$;
--> statement-breakpoint
-- Converts a member's undecided or kept prizes to free coins, all or none. Answers
-- {status:'completed', converted, total, balance} or {status:'rejected', code}.
CREATE OR REPLACE FUNCTION prize_convert(p_member text, p_prizes uuid[], p_auto boolean,
  p_free_expiry interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  p record; v_found int; v_open int; v_total int := 0; v_list jsonb := '[]'::jsonb; w record;
BEGIN
  SELECT count(*), count(*) FILTER (WHERE status IN ('pending', 'kept')) INTO v_found, v_open FROM (
    SELECT id, status FROM prizes WHERE id = ANY (p_prizes) AND member_id = p_member ORDER BY id FOR UPDATE) s;
  IF NOT p_auto THEN
    IF v_found < cardinality(ARRAY(SELECT DISTINCT unnest(p_prizes))) THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'PRIZE_NOT_FOUND');
    END IF;
    IF v_open < v_found THEN
      RETURN jsonb_build_object('status', 'rejected', 'code', 'PRIZE_ALREADY_DECIDED');
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
-- Every invariant of architecture.md that the data can show, as a list of violations (empty = all hold).
CREATE OR REPLACE FUNCTION shop_check_invariants() RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (
    -- lots: claimed + unclaimed = total; a sold-out pack has none left
    SELECT jsonb_build_object('check', 'lots_total', 'gachaId', g.id, 'total', g.total_lots, 'lots', count(l.position)) AS v
      FROM gachas g LEFT JOIN gacha_lots l ON l.gacha_id = g.id
     WHERE g.commitment IS NOT NULL GROUP BY g.id HAVING count(l.position) <> g.total_lots
    UNION ALL
    SELECT jsonb_build_object('check', 'sold_out_has_lots', 'gachaId', g.id)
      FROM gachas g WHERE g.status = 'sold_out'
       AND EXISTS (SELECT 1 FROM gacha_lots l WHERE l.gacha_id = g.id AND l.draw_id IS NULL)
    UNION ALL
    SELECT jsonb_build_object('check', 'empty_pack_on_sale', 'gachaId', g.id)
      FROM gachas g WHERE g.status = 'on_sale' AND g.commitment IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM gacha_lots l WHERE l.gacha_id = g.id AND l.draw_id IS NULL)
    UNION ALL
    -- a claimed lot has exactly one prize, the same draw's, and nothing else claims it
    SELECT jsonb_build_object('check', 'lot_prize_mismatch', 'gachaId', l.gacha_id, 'position', l.position)
      FROM gacha_lots l LEFT JOIN prizes p ON p.gacha_id = l.gacha_id AND p.position = l.position
     WHERE (l.draw_id IS NOT NULL AND (p.id IS NULL OR p.draw_id <> l.draw_id OR p.member_id <> l.member_id))
        OR (l.draw_id IS NULL AND p.id IS NOT NULL)
    UNION ALL
    -- the ラストワン賞: exactly one when a pack with one sold out, otherwise none
    SELECT jsonb_build_object('check', 'last_one_count', 'gachaId', g.id, 'awarded', count(p.id))
      FROM gachas g JOIN gacha_tiers t ON t.gacha_id = g.id AND t.is_last_one
      LEFT JOIN prizes p ON p.tier_id = t.id
     GROUP BY g.id, g.status HAVING count(p.id) <> CASE WHEN g.status = 'sold_out' THEN 1 ELSE 0 END
    UNION ALL
    -- nothing is won after a pack's seed and log were made public
    SELECT jsonb_build_object('check', 'prize_after_reveal', 'gachaId', g.id, 'prizes', count(*))
      FROM gachas g JOIN prizes p ON p.gacha_id = g.id
     WHERE g.revealed_at IS NOT NULL AND p.created_at > g.revealed_at
     GROUP BY g.id
    UNION ALL
    -- a draw: completed ones paid exactly count × price for exactly count lots; refused ones nothing
    SELECT jsonb_build_object('check', 'draw_mismatch', 'drawId', d.id, 'status', d.status,
             'lots', (SELECT count(*) FROM prizes p WHERE p.draw_id = d.id AND p.position IS NOT NULL),
             'paid', (SELECT coalesce(-sum(e.amount), 0) FROM coin_ledger e WHERE e.idem_key = 'draw:' || d.id))
      FROM draws d
     WHERE (d.status = 'completed' AND (
              (SELECT count(*) FROM prizes p WHERE p.draw_id = d.id AND p.position IS NOT NULL) <> d.count
           OR (SELECT coalesce(-sum(e.amount), 0) FROM coin_ledger e WHERE e.idem_key = 'draw:' || d.id) <> d.cost))
        OR (d.status = 'refused' AND (
              EXISTS (SELECT 1 FROM prizes p WHERE p.draw_id = d.id)
           OR EXISTS (SELECT 1 FROM coin_ledger e WHERE e.idem_key = 'draw:' || d.id)))
    UNION ALL
    -- coins: the cached balance equals the ledger and the grants, per kind; nothing negative
    SELECT jsonb_build_object('check', 'wallet_vs_ledger', 'memberId', w.member_id, 'paid', w.paid, 'free', w.free,
             'ledgerPaid', coalesce(e.paid, 0), 'ledgerFree', coalesce(e.free, 0),
             'grantsPaid', coalesce(gr.paid, 0), 'grantsFree', coalesce(gr.free, 0))
      FROM wallets w
      LEFT JOIN (SELECT member_id, sum(amount) FILTER (WHERE kind = 'paid') AS paid,
                        sum(amount) FILTER (WHERE kind = 'free') AS free
                   FROM coin_ledger GROUP BY member_id) e ON e.member_id = w.member_id
      LEFT JOIN (SELECT member_id, sum(remaining) FILTER (WHERE kind = 'paid') AS paid,
                        sum(remaining) FILTER (WHERE kind = 'free') AS free
                   FROM coin_grants GROUP BY member_id) gr ON gr.member_id = w.member_id
     WHERE w.paid <> coalesce(e.paid, 0) OR w.free <> coalesce(e.free, 0)
        OR w.paid <> coalesce(gr.paid, 0) OR w.free <> coalesce(gr.free, 0)
        OR w.paid < 0 OR w.free < 0
    UNION ALL
    SELECT jsonb_build_object('check', 'ledger_without_wallet', 'memberId', e.member_id)
      FROM (SELECT DISTINCT member_id FROM coin_ledger) e
     WHERE NOT EXISTS (SELECT 1 FROM wallets w WHERE w.member_id = e.member_id)
    UNION ALL
    -- each grant: amount − remaining = what its debits took; its credit entry exists, once
    SELECT jsonb_build_object('check', 'grant_vs_ledger', 'grantId', gr.id)
      FROM coin_grants gr
      LEFT JOIN (SELECT grant_id, sum(amount) FILTER (WHERE amount > 0) AS credited,
                        count(*) FILTER (WHERE amount > 0) AS credits,
                        coalesce(-sum(amount) FILTER (WHERE amount < 0), 0) AS debited,
                        bool_and(kind = (SELECT kind FROM coin_grants x WHERE x.id = grant_id)) AS same_kind
                   FROM coin_ledger WHERE grant_id IS NOT NULL GROUP BY grant_id) e ON e.grant_id = gr.id
     WHERE e.grant_id IS NULL OR e.credits <> 1 OR e.credited <> gr.amount
        OR gr.amount - gr.remaining <> e.debited OR NOT e.same_kind
    UNION ALL
    -- experience: 1 exp per coin spent on draws
    SELECT jsonb_build_object('check', 'exp_vs_draws', 'memberId', m.member_id, 'exp', m.exp, 'spent', coalesce(s.spent, 0))
      FROM member_progress m
      LEFT JOIN (SELECT member_id, sum(cost) AS spent FROM draws WHERE status = 'completed' GROUP BY member_id) s
        ON s.member_id = m.member_id
     WHERE m.exp <> coalesce(s.spent, 0)
  ) violations
$$;
--> statement-breakpoint
-- Packs listed before lots existed cannot be drawn from: they wait as drafts (the demo data
-- replaces its own; docs/decisions/006).
UPDATE gachas SET status = 'draft' WHERE commitment IS NULL AND status <> 'draft';
