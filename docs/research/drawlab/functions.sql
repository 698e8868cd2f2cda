-- drawlab: one PL/pgSQL function per claim mechanism.
-- Signature for all: draw_X(member bigint, pack bigint, k int, idem_key text) RETURNS jsonb
-- Result: {"ok":true,"draw_id":..,"replay":false,"balance":..,"lots":[{"position":..,"tier":..},..]}
--      or {"ok":false,"reason":"sold_out"|"insufficient_balance"|"no_such_pack"|"bad_k"|"idempotency_key_mismatch"}
-- Refusals are *return values*, not errors, and leave no trace (no draw row, no
-- ledger row, balance and lots unchanged): every write made before the refusal
-- point is compensated inside the same transaction, so nobody ever sees it.
-- No EXCEPTION blocks (=> no subtransactions) on the hot path.

-- ---------------------------------------------------------------- helpers
CREATE OR REPLACE FUNCTION draw_refuse(p_reason text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$ SELECT jsonb_build_object('ok', false, 'reason', p_reason) $$;

-- Replay of an already-completed draw (idempotency hit).
CREATE OR REPLACE FUNCTION draw_replay(p_member bigint, p_pack bigint, p_k int, p_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE d draws%ROWTYPE;
BEGIN
  SELECT * INTO d FROM draws WHERE member_id = p_member AND idem_key = p_key;
  IF NOT FOUND THEN
    -- cannot happen in READ COMMITTED (the conflicting row was committed and
    -- only the inserting transaction ever deletes it), but be defensive
    RETURN draw_refuse('retry');
  END IF;
  IF d.pack_id <> p_pack OR d.k <> p_k THEN
    RETURN draw_refuse('idempotency_key_mismatch');
  END IF;
  RETURN jsonb_build_object(
    'ok', true, 'draw_id', d.id, 'replay', true,
    'balance', (SELECT balance_after FROM ledger WHERE draw_id = d.id AND kind = 'draw' LIMIT 1),
    'lots', (SELECT jsonb_agg(jsonb_build_object('position', r.position, 'tier', r.tier) ORDER BY r.position)
               FROM draw_results r WHERE r.draw_id = d.id));
END $$;

-- ======================================================================
-- A. SELECT ... FOR UPDATE SKIP LOCKED on unclaimed lots, then UPDATE.
--    Needs the partial index lots_unclaimed_idx (created by reset_pack(...,'A')).
--    Order: draw row -> lock k lots (never waits) -> debit wallet -> claim -> results -> ledger
-- ======================================================================
CREATE OR REPLACE FUNCTION draw_a(p_member bigint, p_pack bigint, p_k int, p_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_price bigint; v_cost bigint; v_draw bigint; v_bal bigint; v_pos int[]; v_lots jsonb;
BEGIN
  IF p_k IS NULL OR p_k < 1 OR p_k > 100 THEN RETURN draw_refuse('bad_k'); END IF;
  SELECT price INTO v_price FROM packs WHERE id = p_pack;          -- plain read, no lock
  IF NOT FOUND THEN RETURN draw_refuse('no_such_pack'); END IF;
  v_cost := v_price * p_k;

  INSERT INTO draws (member_id, idem_key, pack_id, k, cost)
  VALUES (p_member, p_key, p_pack, p_k, v_cost)
  ON CONFLICT (member_id, idem_key) DO NOTHING
  RETURNING id INTO v_draw;
  IF v_draw IS NULL THEN RETURN draw_replay(p_member, p_pack, p_k, p_key); END IF;

  SELECT array_agg(position ORDER BY position) INTO v_pos FROM (
    SELECT position FROM lots
     WHERE pack_id = p_pack AND draw_id IS NULL
     ORDER BY position LIMIT p_k
     FOR UPDATE SKIP LOCKED) s;
  IF coalesce(cardinality(v_pos), 0) < p_k THEN
    DELETE FROM draws WHERE id = v_draw;                             -- compensate
    RETURN draw_refuse('sold_out');
  END IF;

  UPDATE members SET balance = balance - v_cost
   WHERE id = p_member AND balance >= v_cost
  RETURNING balance INTO v_bal;
  IF NOT FOUND THEN
    DELETE FROM draws WHERE id = v_draw;                             -- lots only locked, not written
    RETURN draw_refuse('insufficient_balance');
  END IF;

  WITH c AS (
    UPDATE lots SET draw_id = v_draw
     WHERE pack_id = p_pack AND position = ANY (v_pos) AND draw_id IS NULL
    RETURNING position, tier),
  r AS (
    INSERT INTO draw_results (draw_id, pack_id, position, tier)
    SELECT v_draw, p_pack, position, tier FROM c
    RETURNING position, tier)
  SELECT jsonb_agg(jsonb_build_object('position', position, 'tier', tier) ORDER BY position) INTO v_lots FROM r;
  IF coalesce(jsonb_array_length(v_lots), 0) <> p_k THEN
    RAISE EXCEPTION 'invariant: claimed % lots, wanted %', jsonb_array_length(v_lots), p_k;
  END IF;

  INSERT INTO ledger (member_id, draw_id, amount, balance_after, kind)
  VALUES (p_member, v_draw, -v_cost, v_bal, 'draw');

  RETURN jsonb_build_object('ok', true, 'draw_id', v_draw, 'replay', false, 'balance', v_bal, 'lots', v_lots);
END $$;

-- ======================================================================
-- B. Counter on the pack row, taken EARLY (right after the idempotency insert).
--    Order: draw row -> pack counter (row lock held to commit) -> debit -> claim -> results -> ledger
-- ======================================================================
CREATE OR REPLACE FUNCTION draw_b(p_member bigint, p_pack bigint, p_k int, p_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_price bigint; v_cost bigint; v_draw bigint; v_bal bigint; v_first int; v_lots jsonb;
BEGIN
  IF p_k IS NULL OR p_k < 1 OR p_k > 100 THEN RETURN draw_refuse('bad_k'); END IF;
  SELECT price INTO v_price FROM packs WHERE id = p_pack;
  IF NOT FOUND THEN RETURN draw_refuse('no_such_pack'); END IF;
  v_cost := v_price * p_k;

  INSERT INTO draws (member_id, idem_key, pack_id, k, cost)
  VALUES (p_member, p_key, p_pack, p_k, v_cost)
  ON CONFLICT (member_id, idem_key) DO NOTHING
  RETURNING id INTO v_draw;
  IF v_draw IS NULL THEN RETURN draw_replay(p_member, p_pack, p_k, p_key); END IF;

  UPDATE packs SET next_position = next_position + p_k
   WHERE id = p_pack AND next_position + p_k - 1 <= total
  RETURNING next_position - p_k INTO v_first;
  IF NOT FOUND THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('sold_out');
  END IF;

  UPDATE members SET balance = balance - v_cost
   WHERE id = p_member AND balance >= v_cost
  RETURNING balance INTO v_bal;
  IF NOT FOUND THEN
    -- we still hold the pack row lock, nobody moved the counter since: undo it
    UPDATE packs SET next_position = next_position - p_k WHERE id = p_pack;
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('insufficient_balance');
  END IF;

  WITH c AS (
    UPDATE lots SET draw_id = v_draw
     WHERE pack_id = p_pack AND position BETWEEN v_first AND v_first + p_k - 1 AND draw_id IS NULL
    RETURNING position, tier),
  r AS (
    INSERT INTO draw_results (draw_id, pack_id, position, tier)
    SELECT v_draw, p_pack, position, tier FROM c
    RETURNING position, tier)
  SELECT jsonb_agg(jsonb_build_object('position', position, 'tier', tier) ORDER BY position) INTO v_lots FROM r;
  IF coalesce(jsonb_array_length(v_lots), 0) <> p_k THEN
    RAISE EXCEPTION 'invariant: claimed % lots, wanted %', jsonb_array_length(v_lots), p_k;
  END IF;

  INSERT INTO ledger (member_id, draw_id, amount, balance_after, kind)
  VALUES (p_member, v_draw, -v_cost, v_bal, 'draw');

  RETURN jsonb_build_object('ok', true, 'draw_id', v_draw, 'replay', false, 'balance', v_bal, 'lots', v_lots);
END $$;

-- ======================================================================
-- C. Counter on the pack row, taken LATE: draw row -> debit -> ledger-independent
--    work done first; the hot pack row is locked only for: counter, claim,
--    results, ledger, commit.
--    (The ledger row is written after the counter because the ledger is
--    append-only: a sold-out race at the counter must not need to delete it.)
-- ======================================================================
CREATE OR REPLACE FUNCTION draw_c(p_member bigint, p_pack bigint, p_k int, p_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_price bigint; v_total int; v_next int; v_cost bigint; v_draw bigint; v_bal bigint; v_first int; v_lots jsonb;
BEGIN
  IF p_k IS NULL OR p_k < 1 OR p_k > 100 THEN RETURN draw_refuse('bad_k'); END IF;
  SELECT price, total, next_position INTO v_price, v_total, v_next FROM packs WHERE id = p_pack;  -- no lock
  IF NOT FOUND THEN RETURN draw_refuse('no_such_pack'); END IF;
  v_cost := v_price * p_k;

  INSERT INTO draws (member_id, idem_key, pack_id, k, cost)
  VALUES (p_member, p_key, p_pack, p_k, v_cost)
  ON CONFLICT (member_id, idem_key) DO NOTHING
  RETURNING id INTO v_draw;
  IF v_draw IS NULL THEN RETURN draw_replay(p_member, p_pack, p_k, p_key); END IF;

  -- cheap early refusal from the unlocked snapshot (exact check is below)
  IF v_next + p_k - 1 > v_total THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('sold_out');
  END IF;

  UPDATE members SET balance = balance - v_cost
   WHERE id = p_member AND balance >= v_cost
  RETURNING balance INTO v_bal;
  IF NOT FOUND THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('insufficient_balance');
  END IF;

  -- hot row: as late as possible
  UPDATE packs SET next_position = next_position + p_k
   WHERE id = p_pack AND next_position + p_k - 1 <= total
  RETURNING next_position - p_k INTO v_first;
  IF NOT FOUND THEN                                                 -- lost the race for the last lots
    UPDATE members SET balance = balance + v_cost WHERE id = p_member;   -- undo debit (same txn, never visible)
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('sold_out');
  END IF;

  WITH c AS (
    UPDATE lots SET draw_id = v_draw
     WHERE pack_id = p_pack AND position BETWEEN v_first AND v_first + p_k - 1 AND draw_id IS NULL
    RETURNING position, tier),
  r AS (
    INSERT INTO draw_results (draw_id, pack_id, position, tier)
    SELECT v_draw, p_pack, position, tier FROM c
    RETURNING position, tier)
  SELECT jsonb_agg(jsonb_build_object('position', position, 'tier', tier) ORDER BY position) INTO v_lots FROM r;
  IF coalesce(jsonb_array_length(v_lots), 0) <> p_k THEN
    RAISE EXCEPTION 'invariant: claimed % lots, wanted %', jsonb_array_length(v_lots), p_k;
  END IF;

  INSERT INTO ledger (member_id, draw_id, amount, balance_after, kind)
  VALUES (p_member, v_draw, -v_cost, v_bal, 'draw');

  RETURN jsonb_build_object('ok', true, 'draw_id', v_draw, 'replay', false, 'balance', v_bal, 'lots', v_lots);
END $$;

-- ======================================================================
-- D. Like C, but serialise with pg_advisory_xact_lock(pack) before the counter.
--    (The counter UPDATE still row-locks the pack row, so this only adds a lock.)
-- ======================================================================
CREATE OR REPLACE FUNCTION draw_d(p_member bigint, p_pack bigint, p_k int, p_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_price bigint; v_total int; v_next int; v_cost bigint; v_draw bigint; v_bal bigint; v_first int; v_lots jsonb;
BEGIN
  IF p_k IS NULL OR p_k < 1 OR p_k > 100 THEN RETURN draw_refuse('bad_k'); END IF;
  SELECT price, total, next_position INTO v_price, v_total, v_next FROM packs WHERE id = p_pack;
  IF NOT FOUND THEN RETURN draw_refuse('no_such_pack'); END IF;
  v_cost := v_price * p_k;

  INSERT INTO draws (member_id, idem_key, pack_id, k, cost)
  VALUES (p_member, p_key, p_pack, p_k, v_cost)
  ON CONFLICT (member_id, idem_key) DO NOTHING
  RETURNING id INTO v_draw;
  IF v_draw IS NULL THEN RETURN draw_replay(p_member, p_pack, p_k, p_key); END IF;

  IF v_next + p_k - 1 > v_total THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('sold_out');
  END IF;

  UPDATE members SET balance = balance - v_cost
   WHERE id = p_member AND balance >= v_cost
  RETURNING balance INTO v_bal;
  IF NOT FOUND THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('insufficient_balance');
  END IF;

  PERFORM pg_advisory_xact_lock(7777, p_pack::int);
  UPDATE packs SET next_position = next_position + p_k
   WHERE id = p_pack AND next_position + p_k - 1 <= total
  RETURNING next_position - p_k INTO v_first;
  IF NOT FOUND THEN
    UPDATE members SET balance = balance + v_cost WHERE id = p_member;
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('sold_out');
  END IF;

  WITH c AS (
    UPDATE lots SET draw_id = v_draw
     WHERE pack_id = p_pack AND position BETWEEN v_first AND v_first + p_k - 1 AND draw_id IS NULL
    RETURNING position, tier),
  r AS (
    INSERT INTO draw_results (draw_id, pack_id, position, tier)
    SELECT v_draw, p_pack, position, tier FROM c
    RETURNING position, tier)
  SELECT jsonb_agg(jsonb_build_object('position', position, 'tier', tier) ORDER BY position) INTO v_lots FROM r;
  IF coalesce(jsonb_array_length(v_lots), 0) <> p_k THEN
    RAISE EXCEPTION 'invariant: claimed % lots, wanted %', jsonb_array_length(v_lots), p_k;
  END IF;

  INSERT INTO ledger (member_id, draw_id, amount, balance_after, kind)
  VALUES (p_member, v_draw, -v_cost, v_bal, 'draw');

  RETURN jsonb_build_object('ok', true, 'draw_id', v_draw, 'replay', false, 'balance', v_bal, 'lots', v_lots);
END $$;

-- ======================================================================
-- E. (extra) Per-pack SEQUENCE hands out positions (nextval is not
--    transactional: no lock is held until commit), lots at those positions
--    are locked FOR UPDATE; positions burnt by aborted transactions, or the
--    tail of the pack, are picked up by a SKIP LOCKED scan (mechanism A) as
--    a fallback, so every lot is eventually sold.
--    Sequence name: pack_<id>_pos (created by reset_all). Uses the partial
--    index lots_unclaimed_idx for the tail scan (costs ~nothing on claims:
--    the claimed version no longer matches the predicate, so no index insert).
-- ======================================================================
CREATE OR REPLACE FUNCTION draw_e(p_member bigint, p_pack bigint, p_k int, p_key text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_price bigint; v_total int; v_cost bigint; v_draw bigint; v_bal bigint;
  v_want int[]; v_pos int[]; v_more int[]; v_lots jsonb;
BEGIN
  IF p_k IS NULL OR p_k < 1 OR p_k > 100 THEN RETURN draw_refuse('bad_k'); END IF;
  SELECT price, total INTO v_price, v_total FROM packs WHERE id = p_pack;
  IF NOT FOUND THEN RETURN draw_refuse('no_such_pack'); END IF;
  v_cost := v_price * p_k;

  INSERT INTO draws (member_id, idem_key, pack_id, k, cost)
  VALUES (p_member, p_key, p_pack, p_k, v_cost)
  ON CONFLICT (member_id, idem_key) DO NOTHING
  RETURNING id INTO v_draw;
  IF v_draw IS NULL THEN RETURN draw_replay(p_member, p_pack, p_k, p_key); END IF;

  -- tail mode (sequence exhausted): cheap early sold-out refusal via the partial index
  IF coalesce(pg_sequence_last_value(format('pack_%s_pos', p_pack)::regclass), 0) >= v_total
     AND (SELECT count(*) FROM (SELECT 1 FROM lots WHERE pack_id = p_pack AND draw_id IS NULL LIMIT p_k) s) < p_k THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('sold_out');
  END IF;

  -- debit BEFORE locking any lot: a transaction holding lot locks then never waits (no deadlock)
  UPDATE members SET balance = balance - v_cost
   WHERE id = p_member AND balance >= v_cost
  RETURNING balance INTO v_bal;
  IF NOT FOUND THEN
    DELETE FROM draws WHERE id = v_draw;
    RETURN draw_refuse('insufficient_balance');
  END IF;

  SELECT array_agg(nextval(format('pack_%s_pos', p_pack)::regclass)::int) INTO v_want
    FROM generate_series(1, p_k);
  SELECT array_agg(position ORDER BY position) INTO v_pos FROM (
    SELECT position FROM lots
     WHERE pack_id = p_pack AND position = ANY (v_want) AND position <= v_total AND draw_id IS NULL
     ORDER BY position
     FOR UPDATE) s;
  v_pos := coalesce(v_pos, '{}');
  IF cardinality(v_pos) < p_k THEN                                   -- tail of the pack / burnt positions
    SELECT array_agg(position) INTO v_more FROM (
      SELECT position FROM lots
       WHERE pack_id = p_pack AND draw_id IS NULL AND position <> ALL (v_pos)
       ORDER BY position LIMIT p_k - cardinality(v_pos)
       FOR UPDATE SKIP LOCKED) s;
    v_pos := v_pos || coalesce(v_more, '{}');
    IF cardinality(v_pos) < p_k THEN
      UPDATE members SET balance = balance + v_cost WHERE id = p_member;   -- undo debit
      DELETE FROM draws WHERE id = v_draw;
      RETURN draw_refuse('sold_out');                                 -- lot locks vanish at commit
    END IF;
  END IF;

  WITH c AS (
    UPDATE lots SET draw_id = v_draw
     WHERE pack_id = p_pack AND position = ANY (v_pos) AND draw_id IS NULL
    RETURNING position, tier),
  r AS (
    INSERT INTO draw_results (draw_id, pack_id, position, tier)
    SELECT v_draw, p_pack, position, tier FROM c
    RETURNING position, tier)
  SELECT jsonb_agg(jsonb_build_object('position', position, 'tier', tier) ORDER BY position) INTO v_lots FROM r;
  IF coalesce(jsonb_array_length(v_lots), 0) <> p_k THEN
    RAISE EXCEPTION 'invariant: claimed % lots, wanted %', jsonb_array_length(v_lots), p_k;
  END IF;

  INSERT INTO ledger (member_id, draw_id, amount, balance_after, kind)
  VALUES (p_member, v_draw, -v_cost, v_bal, 'draw');

  RETURN jsonb_build_object('ok', true, 'draw_id', v_draw, 'replay', false, 'balance', v_bal, 'lots', v_lots);
END $$;

-- ---------------------------------------------------------------- reset
-- reset_pack(pack, n_lots, price, mech): wipe draws/results/ledger, (re)create
-- pack + lots with a shuffled secret tier order, refill 200 members.
CREATE OR REPLACE PROCEDURE reset_all(p_pack bigint, p_n int, p_price bigint, p_mech text,
                                      p_members int DEFAULT 200, p_balance bigint DEFAULT 1000000000000)
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE ledger, draw_results, draws, lots, packs, members RESTART IDENTITY;
  EXECUTE format('DROP SEQUENCE IF EXISTS pack_%s_pos', p_pack);
  EXECUTE format('CREATE SEQUENCE pack_%s_pos AS int', p_pack);
  DROP INDEX IF EXISTS lots_unclaimed_idx;
  INSERT INTO members SELECT g, p_balance FROM generate_series(1, p_members) g;
  INSERT INTO packs (id, total, price) VALUES (p_pack, p_n, p_price);
  -- tier: 1 = top prize (0.1%), 2 (1%), 3 (10%), 4 (rest); position order is "secret"
  INSERT INTO lots (pack_id, position, tier)
  SELECT p_pack, g, CASE WHEN r < 0.001 THEN 1 WHEN r < 0.011 THEN 2 WHEN r < 0.111 THEN 3 ELSE 4 END
    FROM (SELECT g, random() AS r FROM generate_series(1, p_n) g) s;
  IF p_mech IN ('A', 'E') THEN   -- E uses it only for the tail / burnt positions
    CREATE INDEX lots_unclaimed_idx ON lots (pack_id, position) WHERE draw_id IS NULL;
  END IF;
END $$;
