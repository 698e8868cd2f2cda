-- The gacha module's SQL over its lots: the only code that takes positions from a pack's sequence,
-- locks and claims lots and marks a pack sold out. draw_execute (modules/draw/sql) calls these inside
-- its own transaction, in the lock order of docs/decisions/006: the member's wallet → the pack row
-- (only at the end of a pack) → lots. Applied after the migrations by db/module-sql.ts.
-- Every function that writes or locks lots, or creates a pack's sequence, runs with its owner's rights
-- (SECURITY DEFINER, search_path pinned with pg_temp last): on PostgreSQL with separate roles the shop's
-- role only reads gacha_lots and creates nothing (docs/decisions/051).

-- A pack's terms as a draw needs them (read-only; the planner inlines it). kiriban_next is the smallest
-- キリ番 not yet awarded (decision 027), null when none is left: a draw far from it pays nothing more.
-- (Dropped first: CREATE OR REPLACE cannot add an output column. draw_execute reads it by name.)
DROP FUNCTION IF EXISTS gacha_draw_terms(text);
CREATE FUNCTION gacha_draw_terms(p_gacha text)
RETURNS TABLE (id text, no int, status text, price_per_draw int, total_lots int, draw_options int[],
  per_member_limit int, min_rank smallint, sale_starts_at timestamptz, sale_ends_at timestamptz, kiriban_next int,
  draw_mode text, personal_kiriban boolean, pitari boolean, waiting_room boolean, ceiling boolean)
LANGUAGE sql STABLE AS $$
  SELECT g.id, g.no, g.status, g.price_per_draw, g.total_lots, g.draw_options, g.per_member_limit, g.min_rank,
         g.sale_starts_at, g.sale_ends_at, g.kiriban_next, g.draw_mode, g.personal_kiriban, g.pitari, g.waiting_room,
         g.ceiling
    FROM gachas g WHERE g.id = p_gacha
$$;

-- A pack's waiting room as the waiting room's SQL reads it (decision 087): no row for a pack without one.
-- The start is the sale's (a room without a start time orders its members at the first call after publication).
CREATE OR REPLACE FUNCTION gacha_waiting_room_terms(p_gacha text)
RETURNS TABLE (status text, starts_at timestamptz, per_member_limit int, window_seconds int, batch int)
LANGUAGE sql STABLE AS $$
  SELECT g.status, coalesce(g.sale_starts_at, g.committed_at), g.per_member_limit, g.waiting_room_window_seconds,
         g.waiting_room_batch
    FROM gachas g WHERE g.id = p_gacha AND g.waiting_room AND g.status <> 'draft'
$$;

-- A beacon pack's clock (decision 081): the committed chain's genesis (Unix seconds) and period (seconds), and
-- the shop's close margin in milliseconds. No row for a sequence pack.
CREATE OR REPLACE FUNCTION gacha_beacon_clock(p_gacha text)
RETURNS TABLE (genesis_time bigint, period int, close_margin_ms int)
LANGUAGE sql STABLE AS $$
  SELECT b.genesis_time, b.period, b.close_margin_ms FROM gacha_beacon_terms b WHERE b.gacha_id = p_gacha
$$;

-- Normal mode (measured in docs/research/2026-11-21-draw-mechanisms.md): p_count positions from the
-- pack's own sequence (no hot row), their lots locked NOWAIT. Returns the positions, or NULL when
-- the sequence has run out (this draw might be the pack's last: the caller takes
-- gacha_lock_final_lots). Raises 40001 (or 55P03 from NOWAIT) when a lot was taken meanwhile, the
-- pack reached its end or left the sale: the caller retries the whole call.
CREATE OR REPLACE FUNCTION gacha_reserve_lots(p_gacha text, p_no int, p_total int, p_count int) RETURNS int[]
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_seq regclass := format('gacha_pos_%s', p_no)::regclass;
  v_want int[]; v_pos int[];
BEGIN
  IF coalesce(pg_sequence_last_value(v_seq), 0) + p_count > p_total THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(nextval(v_seq)::int) INTO v_want FROM generate_series(1, p_count);
  IF (SELECT max(x) FROM unnest(v_want) x) > p_total THEN
    RETURN NULL;
  END IF;
  -- By primary key (not the partial index, whose statistics lag behind a fresh pack); a lot
  -- already claimed is locked too but not counted, and the draw retries.
  SELECT array_agg(s.position ORDER BY s.position) FILTER (WHERE s.draw_id IS NULL) INTO v_pos FROM (
    SELECT l.position, l.draw_id FROM gacha_lots l
     WHERE l.gacha_id = p_gacha AND l.position = ANY (v_want)
     ORDER BY l.position FOR UPDATE NOWAIT) s;
  -- With the lots locked: still ours, the pack not at its end, and not ended meanwhile (endPack
  -- locks every unclaimed lot, so it either waits for this draw or this draw sees it).
  IF coalesce(cardinality(v_pos), 0) < p_count
     OR coalesce(pg_sequence_last_value(v_seq), 0) >= p_total
     OR (SELECT g.status FROM gachas g WHERE g.id = p_gacha) <> 'on_sale' THEN
    RAISE EXCEPTION 'draw: retry at the end of the pack' USING ERRCODE = '40001';
  END IF;
  RETURN v_pos;
END $$;

-- The lots of a draw of a pack that may have キリ番賞 (decision 027): the draw's positions, or NULL when
-- the sequence has run out (the end of the pack: the caller takes gacha_lock_final_lots), and the キリ番
-- numbers the draw wins (empty for nearly every draw). p_kiriban is kiriban_next as the draw's terms read it.
-- * Positions entirely below p_kiriban (or no キリ番 left): the normal mode above, with one more condition
--   read in the same statement as the status: the sequence has not yet handed out the first unawarded
--   キリ番 (with the lots locked). Otherwise 40001 and the caller retries; the retry's positions reach it.
-- * Positions reaching p_kiriban: serialised on the pack row like the end of a pack. The draw waits for
--   every claim in flight below its highest position (a blocking lock on the unclaimed lots there), so the
--   lots sold are exactly the claimed ones; no normal draw can commit afterwards without seeing this
--   draw's award (the condition above). Its lots are numbers sold+1 .. sold+count of the sale.
CREATE OR REPLACE FUNCTION gacha_reserve_lots(p_gacha text, p_no int, p_total int, p_count int, p_kiriban int,
  OUT positions int[], OUT kiriban int[])
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_seq regclass := format('gacha_pos_%s', p_no)::regclass;
  v_want int[]; v_max int; v_status text; v_next int; v_free int[]; v_sold int;
BEGIN
  kiriban := '{}';
  IF coalesce(pg_sequence_last_value(v_seq), 0) + p_count > p_total THEN
    RETURN;
  END IF;
  IF p_count = 1 THEN
    -- A simple expression, not a statement (most draws are of one lot).
    v_max := nextval(v_seq)::int;
    v_want := ARRAY[v_max];
  ELSE
    SELECT array_agg(x ORDER BY x), max(x) INTO v_want, v_max
      FROM (SELECT nextval(v_seq)::int AS x FROM generate_series(1, p_count)) s;
  END IF;
  IF v_max > p_total THEN
    RETURN;
  END IF;
  IF p_kiriban IS NULL OR v_max < p_kiriban THEN
    SELECT array_agg(s.position ORDER BY s.position) FILTER (WHERE s.draw_id IS NULL) INTO positions FROM (
      SELECT l.position, l.draw_id FROM gacha_lots l
       WHERE l.gacha_id = p_gacha AND l.position = ANY (v_want)
       ORDER BY l.position FOR UPDATE NOWAIT) s;
    SELECT g.status, g.kiriban_next INTO v_status, v_next FROM gachas g WHERE g.id = p_gacha;
    IF coalesce(cardinality(positions), 0) < p_count
       OR coalesce(pg_sequence_last_value(v_seq), 0) >= p_total
       OR v_status <> 'on_sale'
       -- (p_kiriban is null exactly when no キリ番 is left, or for a beacon pack, whose キリ番 follow the settled
       -- order: decision 081; then v_next is null too, or not this path's business.)
       OR (p_kiriban IS NOT NULL AND coalesce(pg_sequence_last_value(v_seq), 0) >= v_next) THEN
      RAISE EXCEPTION 'draw: retry at the end of the pack or at a キリ番' USING ERRCODE = '40001';
    END IF;
    RETURN;
  END IF;
  -- A キリ番 is within reach: the pack row, then every unclaimed lot up to this draw's highest position.
  PERFORM 1 FROM gachas g WHERE g.id = p_gacha FOR NO KEY UPDATE;
  SELECT g.status, g.kiriban_next INTO v_status, v_next FROM gachas g WHERE g.id = p_gacha;
  SELECT array_agg(s.position ORDER BY s.position) INTO v_free FROM (
    SELECT l.position FROM gacha_lots l WHERE l.gacha_id = p_gacha AND l.draw_id IS NULL AND l.position <= v_max
     ORDER BY l.position FOR UPDATE) s;
  IF v_status <> 'on_sale' OR NOT (v_want <@ coalesce(v_free, '{}'))
     OR coalesce(pg_sequence_last_value(v_seq), 0) >= p_total THEN
    RAISE EXCEPTION 'draw: retry at the end of the pack' USING ERRCODE = '40001';
  END IF;
  positions := v_want;
  -- Whether this draw may reach the next キリ番 is a question of lots SOLD, not of positions: a draw on this
  -- path because its terms were read before the last award (a stale p_kiriban) may hold positions below
  -- v_next while later positions already sold, so its lots can be sale number v_next. Lots sold plus this
  -- draw's never exceed the positions handed out, so below v_next handed out, no award is possible.
  IF v_next IS NOT NULL AND coalesce(pg_sequence_last_value(v_seq), 0) >= v_next THEN
    SELECT p_total - count(*) INTO v_sold FROM gacha_lots l WHERE l.gacha_id = p_gacha AND l.draw_id IS NULL;
    kiriban := gacha_kiriban_award(p_gacha, v_sold, p_count);
  END IF;
END $$;

-- The キリ番 numbers won by the draw that takes lots p_sold+1 .. p_sold+p_count of the sale, and the pack's
-- next unawarded キリ番 moved past them. The caller holds the pack row and has counted p_sold exactly
-- (decision 027). A キリ番 left behind unawarded would be a broken invariant: the draw fails instead.
CREATE OR REPLACE FUNCTION gacha_kiriban_award(p_gacha text, p_sold int, p_count int) RETURNS int[]
LANGUAGE plpgsql AS $$
DECLARE
  v_next int; v_won int[];
BEGIN
  SELECT g.kiriban_next INTO v_next FROM gachas g WHERE g.id = p_gacha;
  IF v_next IS NULL OR v_next > p_sold + p_count THEN
    RETURN '{}';
  END IF;
  IF v_next <= p_sold THEN
    RAISE EXCEPTION 'gacha_kiriban_award: キリ番 % of % passed unawarded (% sold)', v_next, p_gacha, p_sold;
  END IF;
  SELECT coalesce(array_agg(k ORDER BY k), '{}') INTO v_won
    FROM gacha_tiers t, unnest(t.kiriban_at) k WHERE t.gacha_id = p_gacha AND k > p_sold AND k <= p_sold + p_count;
  UPDATE gachas SET kiriban_next = (SELECT min(k) FROM gacha_tiers t, unnest(t.kiriban_at) k
                                     WHERE t.gacha_id = p_gacha AND k > p_sold + p_count)
   WHERE id = p_gacha;
  RETURN v_won;
END $$;

-- The end of a pack: draws serialise on the pack row, then lock every lot still unclaimed (waiting
-- for claims in flight to commit). Answers the status seen under the lock (a pack may have sold
-- out or ended while this draw waited) and, when on sale, the unclaimed positions in order.
CREATE OR REPLACE FUNCTION gacha_lock_final_lots(p_gacha text, OUT pack_status text, OUT unclaimed int[])
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM 1 FROM gachas g WHERE g.id = p_gacha FOR NO KEY UPDATE;
  SELECT g.status INTO pack_status FROM gachas g WHERE g.id = p_gacha;
  IF pack_status <> 'on_sale' THEN
    RETURN;
  END IF;
  SELECT array_agg(s.position ORDER BY s.position) INTO unclaimed FROM (
    SELECT l.position FROM gacha_lots l WHERE l.gacha_id = p_gacha AND l.draw_id IS NULL
     ORDER BY l.position FOR UPDATE) s;
END $$;

-- Claims locked lots for a draw (a lot is claimed once and never released); answers each lot's tier.
-- PL/pgSQL keeps the UPDATE's plan for the session (a SQL function is planned again on every call:
-- docs/decisions/046).
CREATE OR REPLACE FUNCTION gacha_claim_lots(p_gacha text, p_positions int[], p_draw uuid, p_member text)
RETURNS TABLE (lot_position int, lot_tier_id text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  RETURN QUERY
  UPDATE gacha_lots l SET draw_id = p_draw, member_id = p_member
   WHERE l.gacha_id = p_gacha AND l.position = ANY (p_positions)
  RETURNING l.position, l.tier_id;
END $$;

-- ピタリ賞 (decision 088), first half: before a draw of a pack with ピタリ賞 claims its locked lots, the lot tiers
-- among them that a ピタリ賞 rewards, each one's lock taken (in tier order, so two draws cannot deadlock on
-- them). A draw that takes a lot of such a tier holds its lock from before the claim to its commit, so these
-- draws claim, stamp their prizes and commit one at a time, in the order the log shows them.
CREATE OR REPLACE FUNCTION gacha_pitari_lock(p_gacha text, p_positions int[]) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  v_targets text[]; v_target text;
BEGIN
  SELECT array_agg(DISTINCT t.pitari_of ORDER BY t.pitari_of) INTO v_targets
    FROM gacha_lots l JOIN gacha_tiers t ON t.gacha_id = p_gacha AND t.pitari_of = l.tier_id
   WHERE l.gacha_id = p_gacha AND l.position = ANY (p_positions);
  FOREACH v_target IN ARRAY coalesce(v_targets, '{}') LOOP
    PERFORM pg_advisory_xact_lock(hashtext('gacha_pitari'), hashtext(p_gacha || '/' || v_target));
  END LOOP;
  RETURN coalesce(v_targets, '{}');
END $$;

-- ピタリ賞, second half: after the claim, the tiers of p_targets that no unclaimed lot is left of. Exact: every
-- other draw that took a lot of such a tier held its lock and has committed (this statement sees its claim),
-- and none can take one while this draw holds it. So exactly one draw, the one that took the tier's last lot,
-- finds it emptied.
CREATE OR REPLACE FUNCTION gacha_pitari_emptied(p_gacha text, p_targets text[]) RETURNS text[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(x ORDER BY x), '{}') FROM unnest(p_targets) x
   WHERE NOT EXISTS (SELECT 1 FROM gacha_lots l WHERE l.gacha_id = p_gacha AND l.draw_id IS NULL AND l.tier_id = x)
$$;

-- 天井賞 (decision 089): a member's walk over a draw's lots in position order, from their streak before it (lots
-- since their last hit or 天井賞). A lot of a ceilingOf tier resets the streak; any other adds one, and the lot that
-- brings it to ceilingAfter wins one 天井賞 and resets it. The verifier's check 10 recounts the same walk from the
-- published log. Called under the member's wallet lock, after the claim: the streak is exact.
CREATE OR REPLACE FUNCTION gacha_ceiling_walk(p_gacha text, p_positions int[], p_streak int,
  OUT won int, OUT streak int)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_after int; v_of text[]; v_tier text;
BEGIN
  won := 0;
  streak := p_streak;
  SELECT t.ceiling_after, t.ceiling_of INTO v_after, v_of
    FROM gacha_tiers t WHERE t.gacha_id = p_gacha AND t.ceiling_after IS NOT NULL;
  IF v_after IS NULL THEN
    RETURN;
  END IF;
  FOR v_tier IN
    SELECT l.tier_id FROM unnest(p_positions) p JOIN gacha_lots l ON l.gacha_id = p_gacha AND l.position = p
     ORDER BY p
  LOOP
    IF v_tier = ANY (v_of) THEN
      streak := 0;
    ELSE
      streak := streak + 1;
      IF streak >= v_after THEN
        won := won + 1;
        streak := 0;
      END IF;
    END IF;
  END LOOP;
END $$;

-- The draw that took the final lot closes the pack: sold out, nothing left, the seed public from p_at. A beacon
-- pack (decision 081) has no seed: it is revealed when its last draw is settled (gacha_settle_slots).
-- A pack with 個人キリ番賞 (decision 088) frees the cards of the numbers no member reached: nobody can reach one now.
CREATE OR REPLACE FUNCTION gacha_mark_sold_out(p_gacha text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_personal boolean;
BEGIN
  UPDATE gachas SET status = 'sold_out', remaining_lots = 0, sold_out_at = p_at,
         revealed_at = CASE WHEN draw_mode = 'beacon' THEN NULL ELSE p_at END
   WHERE id = p_gacha
  RETURNING personal_kiriban INTO v_personal;
  IF v_personal THEN
    PERFORM gacha_release_personal_stock(p_gacha, p_at);
  END IF;
END $$;

-- The lots of a pack that have been won, with their tier and draw (in a beacon pack: the settled slots). Read
-- by the draw module's public proofs (decision 081).
CREATE OR REPLACE FUNCTION gacha_lots_won(p_gacha text) RETURNS TABLE (lot_position int, tier_id text, draw_id uuid)
LANGUAGE sql STABLE AS $$
  SELECT l.position, l.tier_id, l.draw_id FROM gacha_lots l
   WHERE l.gacha_id = p_gacha AND l.draw_id IS NOT NULL AND l.tier_id IS NOT NULL
$$;

-- A beacon pack's settlement holds the pack row (as a キリ番 award does) and reads its size and status.
CREATE OR REPLACE FUNCTION gacha_lock_for_settlement(p_gacha text, OUT total_lots int, OUT status text)
LANGUAGE sql AS $$
  SELECT g.total_lots, g.status FROM gachas g WHERE g.id = p_gacha FOR NO KEY UPDATE
$$;

-- A beacon pack ended before it sold out is revealed when its last receipt is settled.
CREATE OR REPLACE FUNCTION gacha_reveal_ended_beacon_pack(p_gacha text, p_at timestamptz) RETURNS void
LANGUAGE sql AS $$
  UPDATE gachas SET revealed_at = p_at WHERE id = p_gacha AND draw_mode = 'beacon' AND revealed_at IS NULL
$$;

-- A beacon pack's settlement (decision 081), one round in one transaction: gacha_settled_count once (the sale
-- numbers continue from it), gacha_settle_slots for each draw in order, gacha_check_settled_quantities once at
-- the end. Counting the pack's lots once per round, not once per draw, keeps the pack row's hold short.

-- The lots of a pack settled so far (claimed and given their tier); the caller holds the pack row.
CREATE OR REPLACE FUNCTION gacha_settled_count(p_gacha text) RETURNS int
LANGUAGE sql STABLE AS $$
  SELECT count(*)::int FROM gacha_lots l WHERE l.gacha_id = p_gacha AND l.draw_id IS NOT NULL AND l.tier_id IS NOT NULL
$$;

-- The claimed slots of one draw receive their tiers, once. Refused (a broken invariant: the caller's transaction
-- fails) unless every slot is claimed by p_draw and has no tier yet. p_before is the count of the pack's settled
-- lots before these; when these are its last, the pack is revealed at p_at.
-- (Its first form, before the count moved to gacha_settled_count, is dropped.)
DROP FUNCTION IF EXISTS gacha_settle_slots(text, uuid, int[], text[], timestamptz);
CREATE OR REPLACE FUNCTION gacha_settle_slots(p_gacha text, p_draw uuid, p_positions int[], p_tiers text[],
  p_at timestamptz, p_before int) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_n int;
BEGIN
  UPDATE gacha_lots l SET tier_id = u.tier
    FROM unnest(p_positions, p_tiers) AS u(pos, tier)
   WHERE l.gacha_id = p_gacha AND l.position = u.pos AND l.draw_id = p_draw AND l.tier_id IS NULL;
  GET DIAGNOSTICS v_n = ROW_COUNT;
  IF v_n <> cardinality(p_positions) OR cardinality(p_positions) <> cardinality(p_tiers) THEN
    RAISE EXCEPTION 'gacha_settle_slots: % of % slots of draw % settled', v_n, cardinality(p_positions), p_draw;
  END IF;
  IF p_before + v_n = (SELECT g.total_lots FROM gachas g WHERE g.id = p_gacha) THEN
    UPDATE gachas SET revealed_at = p_at WHERE id = p_gacha;
  END IF;
END $$;

-- After a round's settlement: no tier holds more lots than its quantity, and every settled lot's tier is one of
-- the pack's lot tiers (not its ラストワン賞 or キリ番賞, not another pack's). Raises otherwise.
CREATE OR REPLACE FUNCTION gacha_check_settled_quantities(p_gacha text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM gacha_lots l LEFT JOIN gacha_tiers t ON t.id = l.tier_id AND t.gacha_id = p_gacha
              WHERE l.gacha_id = p_gacha AND l.tier_id IS NOT NULL
              GROUP BY l.tier_id, t.id, t.quantity, t.is_last_one, t.kiriban_at
             HAVING t.id IS NULL OR t.is_last_one OR t.kiriban_at IS NOT NULL OR count(*) > t.quantity) THEN
    RAISE EXCEPTION 'gacha_check_settled_quantities: a tier of % holds more lots than the pack committed', p_gacha;
  END IF;
END $$;

-- Publishing fixes a draft's lots (the only INSERT into gacha_lots) and creates its position sequence
-- gacha_pos_<no>, owned by the owner. p_tiers holds each lot's tier id in position order. Refused unless
-- the pack is a draft without a commitment and without lots: a published pack's lots never change.
CREATE OR REPLACE FUNCTION gacha_fix_lots(p_gacha text, p_tiers jsonb) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  v_no int; v_status text; v_commitment text; v_count int; v_seq regclass; r record;
BEGIN
  SELECT g.no, g.status, g.commitment INTO v_no, v_status, v_commitment FROM gachas g WHERE g.id = p_gacha;
  IF NOT FOUND OR v_status <> 'draft' OR v_commitment IS NOT NULL
     OR EXISTS (SELECT 1 FROM gacha_lots l WHERE l.gacha_id = p_gacha) THEN
    RAISE EXCEPTION 'gacha_fix_lots: % is not an unpublished draft without lots', p_gacha USING ERRCODE = '55000';
  END IF;
  INSERT INTO gacha_lots (gacha_id, position, tier_id)
  SELECT p_gacha, u.ord, u.tier FROM jsonb_array_elements_text(p_tiers) WITH ORDINALITY AS u(tier, ord);
  GET DIAGNOSTICS v_count = ROW_COUNT;
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS public.%I AS integer MINVALUE 1 CACHE 1', 'gacha_pos_' || v_no);
  -- Only the draw's functions take positions: nobody keeps what default privileges gave on the new sequence.
  v_seq := format('public.%I', 'gacha_pos_' || v_no)::regclass;
  FOR r IN SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = v_seq AND a.grantee <> c.relowner LOOP
    EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM %s', v_seq, r.grantee);
  END LOOP;
  RETURN v_count;
END $$;

-- Ending a pack waits for the draws holding its lots: every unclaimed lot locked, in position order.
CREATE OR REPLACE FUNCTION gacha_lock_unclaimed_lots(p_gacha text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  PERFORM 1 FROM gacha_lots l WHERE l.gacha_id = p_gacha AND l.draw_id IS NULL ORDER BY l.position FOR UPDATE;
END $$;

-- Fresh statistics for the lots after a publish (ANALYZE needs the table's owner on PostgreSQL 15).
CREATE OR REPLACE FUNCTION gacha_analyze_lots() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
BEGIN
  ANALYZE public.gacha_lots;
END $$;

-- The lots are history (a claim is never released) and written only by the functions above: every role but
-- the owner loses INSERT, UPDATE, DELETE and TRUNCATE on them, also when default privileges gave them to a
-- role as a migration created the table (docs/decisions/051; db/roles-allow-list.txt).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = 'gacha_lots'::regclass AND a.grantee <> c.relowner
              AND a.privilege_type IN ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')
           UNION
           SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END
             FROM pg_attribute t, aclexplode(t.attacl) a
            WHERE t.attrelid = 'gacha_lots'::regclass AND a.privilege_type IN ('INSERT', 'UPDATE') LOOP
    EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON gacha_lots FROM %s', r.grantee);
  END LOOP;
END $$;
