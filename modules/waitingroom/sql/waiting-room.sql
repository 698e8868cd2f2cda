-- The waiting room's SQL (decision 087): a hot release's queue, exact across instances and kept across
-- restarts because all of it is here. Lock order: the gate (advisory 87/pack, tried, never waited for) → the
-- join lock (advisory 88/pack: shared by every join, exclusive by the order's draw) → the pack's room row
-- (FOR UPDATE by the order's draw and by each admission) → entries. The draw's check (waiting_room_draw_refusal) reads
-- only the member's own entry, without a lock, and is called by draw_execute only for a pack with a room.
-- Every function takes p_now so tests can move time (NULL = the transaction's time, as the draw uses).
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- The order's draw: exactly once per pack, over exactly the members who joined before it. The join lock taken
-- exclusively waits for every join in flight (they hold it shared until they commit), and ordered_at is read
-- again under the room row's lock, so two instances racing at the start draw it once. Each entry's key is
-- gen_random_uuid(), PostgreSQL's strong random source (pg_strong_random, OpenSSL's CSPRNG): the order is
-- by the key, drawn on the server at the start, whatever the arrival order. Answers how many it placed,
-- or -1 before the start, when the order had been drawn already, or while another caller holds the gate.
-- The gate (a transaction advisory lock, 87/hash of the pack) keeps the crowd of callers at the start
-- from queueing on the row: one caller waits for the joins, the others come back at their next poll.
CREATE OR REPLACE FUNCTION waiting_room_draw_order(p_gacha text, p_now timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  r record; v_n int; v_starts timestamptz;
BEGIN
  SELECT starts_at INTO v_starts FROM gacha_waiting_room_terms(p_gacha);
  IF v_starts IS NULL OR v_starts > coalesce(p_now, now()) OR NOT pg_try_advisory_xact_lock(87, hashtext(p_gacha)) THEN
    RETURN -1;
  END IF;
  INSERT INTO waiting_rooms (gacha_id) VALUES (p_gacha) ON CONFLICT DO NOTHING;
  -- Every join in flight holds the pack's join lock shared until it commits: this waits for all of them, and
  -- joins that come after wait behind it (the lock manager queues them), then arrive after the order.
  PERFORM pg_advisory_xact_lock(88, hashtext(p_gacha));
  SELECT * INTO r FROM waiting_rooms WHERE gacha_id = p_gacha FOR UPDATE;
  IF r.ordered_at IS NOT NULL THEN
    RETURN -1;
  END IF;
  WITH keyed AS (
    SELECT e.member_id, gen_random_uuid() AS k FROM waiting_room_entries e
     WHERE e.gacha_id = p_gacha AND e.left_at IS NULL
  ), ranked AS (
    SELECT member_id, k, row_number() OVER (ORDER BY k) AS place FROM keyed
  )
  UPDATE waiting_room_entries e SET order_key = ranked.k, place = ranked.place
    FROM ranked WHERE e.gacha_id = p_gacha AND e.member_id = ranked.member_id;
  GET DIAGNOSTICS v_n = ROW_COUNT;
  UPDATE waiting_rooms SET ordered_at = coalesce(p_now, now()), ordered_count = v_n, last_place = v_n,
         -- Every join before the order has its number by now (the join lock waited for them), every later one a
         -- higher number: the sequence's last value splits the two even when nobody joined before the start.
         arrivals_through = (SELECT last_value FROM waiting_room_entries_arrival_no_seq)
   WHERE gacha_id = p_gacha;
  RETURN v_n;
END $$;

-- Admission: opens windows until p_batch are open at once — the drawn places first, in order, then the
-- later arrivals in arrival order (arrival_no), each given the next place as it is admitted. A window counts until it
-- closes, or ends early (the cap reached, or the member left). Under the room row's lock (behind the same
-- gate as the order's draw): two instances never open the same slot twice. Answers the windows it opened.
CREATE OR REPLACE FUNCTION waiting_room_admit(p_gacha text, p_batch int, p_window_seconds int, p_now timestamptz)
RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz;
  r record; v_free int; v_n int; v_m int := 0; v_through int; v_last int; v_arrivals bigint;
BEGIN
  IF NOT pg_try_advisory_xact_lock(87, hashtext(p_gacha)) THEN
    RETURN 0;
  END IF;
  SELECT * INTO r FROM waiting_rooms WHERE gacha_id = p_gacha AND ordered_at IS NOT NULL FOR UPDATE;
  IF NOT FOUND THEN
    RETURN 0;
  END IF;
  -- The clock after the locks, not the transaction's start: an admission that waited for another opens its
  -- windows after that one's (with now() a later place could carry an earlier opening; the bench caught 5).
  v_now := coalesce(p_now, clock_timestamp());
  SELECT p_batch - count(*) INTO v_free FROM waiting_room_entries
   WHERE gacha_id = p_gacha AND window_opened_at IS NOT NULL AND window_ended_at IS NULL AND window_closes_at > v_now;
  IF v_free <= 0 THEN
    RETURN 0;
  END IF;
  WITH next AS (
    SELECT e.member_id FROM waiting_room_entries e
     WHERE e.gacha_id = p_gacha AND e.place > r.admitted_through AND e.window_opened_at IS NULL AND e.left_at IS NULL
     ORDER BY e.place LIMIT v_free
  ), opened AS (
    UPDATE waiting_room_entries e SET window_opened_at = v_now,
           window_closes_at = v_now + make_interval(secs => p_window_seconds)
      FROM next WHERE e.gacha_id = p_gacha AND e.member_id = next.member_id
    RETURNING e.place
  )
  SELECT count(*), max(place) INTO v_n, v_through FROM opened;
  IF v_n < v_free THEN
    -- Every drawn place has had its turn (or left): the later arrivals, oldest first.
    WITH next AS (
      SELECT e.member_id, e.arrival_no, row_number() OVER (ORDER BY e.arrival_no) AS k FROM waiting_room_entries e
       WHERE e.gacha_id = p_gacha AND e.place IS NULL AND e.left_at IS NULL
       ORDER BY e.arrival_no LIMIT v_free - v_n
    ), opened AS (
      UPDATE waiting_room_entries e SET place = r.last_place + next.k, window_opened_at = v_now,
             window_closes_at = v_now + make_interval(secs => p_window_seconds)
        FROM next WHERE e.gacha_id = p_gacha AND e.member_id = next.member_id
      RETURNING next.arrival_no
    )
    SELECT count(*), max(arrival_no) INTO v_m, v_arrivals FROM opened;
    v_last := r.last_place + v_m;
    v_through := v_last;
  END IF;
  UPDATE waiting_rooms SET admitted_through = greatest(admitted_through, coalesce(v_through, admitted_through)),
         last_place = coalesce(v_last, last_place),
         arrivals_through = greatest(arrivals_through, coalesce(v_arrivals, arrivals_through))
   WHERE gacha_id = p_gacha;
  RETURN v_n + v_m;
END $$;

-- A member joins (sign-in, the captcha and the verified phone are checked before, by the server): one entry
-- per member and per phone (p_phone_key, the number's SHA-256). The join lock shared until commit: an
-- order's draw waits for this join, so a member who joined before it is always in it. Answers
-- { joined } (false: the member was in already) or { code } for a refusal.
CREATE OR REPLACE FUNCTION waiting_room_join(p_gacha text, p_member text, p_phone_key text, p_now timestamptz)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  t record; e record;
BEGIN
  SELECT * INTO t FROM gacha_waiting_room_terms(p_gacha);
  IF NOT FOUND THEN
    RETURN jsonb_build_object('code', 'WAITING_ROOM_NOT_FOUND');
  END IF;
  IF t.status IN ('sold_out', 'ended') THEN
    RETURN jsonb_build_object('code', 'WAITING_ROOM_CLOSED');
  END IF;
  -- The pack's join lock, shared until commit: the order's draw takes it exclusively, so it waits for this join
  -- and a member who joined before it is always in it. (A lock of the lock manager, not the room row FOR SHARE:
  -- thousands of joins at once would each make a new MultiXact of every holder.)
  PERFORM pg_advisory_xact_lock_shared(88, hashtext(p_gacha));
  -- The arrival time is read after the lock: a join that waited for the order's draw arrives after it.
  INSERT INTO waiting_room_entries (gacha_id, member_id, phone_key, arrived_at)
  VALUES (p_gacha, p_member, p_phone_key, coalesce(p_now, clock_timestamp()))
  ON CONFLICT DO NOTHING;
  IF FOUND THEN
    RETURN jsonb_build_object('joined', true);
  END IF;
  SELECT left_at INTO e FROM waiting_room_entries WHERE gacha_id = p_gacha AND member_id = p_member;
  IF NOT FOUND THEN
    RETURN jsonb_build_object('code', 'WAITING_ROOM_PHONE_TAKEN');
  END IF;
  IF e.left_at IS NOT NULL THEN
    RETURN jsonb_build_object('code', 'WAITING_ROOM_LEFT');
  END IF;
  RETURN jsonb_build_object('joined', false);
END $$;

-- What the member's page shows, in one call: the order drawn if the start has passed (by whichever call
-- comes first, on any instance), the queue moved on if the member is still waiting, then the member's
-- state. `ahead` counts places not yet admitted before the member's, by subtraction (members who left ahead are
-- counted until the queue passes them, so it can only overstate); `admittedPerSecond` is the queue's pace so far.
CREATE OR REPLACE FUNCTION waiting_room_poll(p_gacha text, p_member text, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  t record; r record; e record; v_ahead int; v_state text;
BEGIN
  SELECT * INTO t FROM gacha_waiting_room_terms(p_gacha);
  IF NOT FOUND THEN
    RETURN jsonb_build_object('state', 'none');
  END IF;
  SELECT * INTO r FROM waiting_rooms WHERE gacha_id = p_gacha;
  IF r.ordered_at IS NULL AND t.starts_at <= v_now AND t.status NOT IN ('sold_out', 'ended') THEN
    PERFORM waiting_room_draw_order(p_gacha, v_now);
    SELECT * INTO r FROM waiting_rooms WHERE gacha_id = p_gacha;
  END IF;
  SELECT * INTO e FROM waiting_room_entries WHERE gacha_id = p_gacha AND member_id = p_member;
  IF e.member_id IS NOT NULL AND e.left_at IS NULL AND e.window_opened_at IS NULL AND r.ordered_at IS NOT NULL
     AND t.status = 'on_sale' THEN
    IF waiting_room_admit(p_gacha, t.batch, t.window_seconds, v_now) > 0 THEN
      SELECT * INTO e FROM waiting_room_entries WHERE gacha_id = p_gacha AND member_id = p_member;
      SELECT * INTO r FROM waiting_rooms WHERE gacha_id = p_gacha;
    END IF;
  END IF;
  v_state := CASE
    WHEN t.status IN ('sold_out', 'ended') THEN 'closed'
    WHEN e.member_id IS NULL THEN 'not_joined'
    WHEN e.left_at IS NOT NULL THEN 'left'
    WHEN r.ordered_at IS NULL THEN 'registered'
    WHEN e.window_opened_at IS NULL THEN 'waiting'
    WHEN e.window_ended_at IS NULL AND e.window_closes_at > v_now THEN 'admitted'
    ELSE 'done' END;
  IF v_state = 'waiting' THEN
    IF e.place IS NOT NULL THEN
      v_ahead := greatest(e.place - r.admitted_through - 1, 0);
    ELSE
      -- A later arrival: the drawn places still waiting, and the arrival numbers between the last admitted and
      -- theirs (numbers are shop-wide, so another pack's joins and members who left make it overstate, never
      -- understate; one subtraction instead of a count over thousands of entries on every read).
      v_ahead := greatest(r.last_place - r.admitted_through, 0) + greatest(e.arrival_no - r.arrivals_through - 1, 0);
    END IF;
  END IF;
  RETURN jsonb_build_object('state', v_state, 'startsAt', t.starts_at, 'cap', t.per_member_limit,
    'windowSeconds', t.window_seconds, 'batch', t.batch, 'place', e.place, 'ahead', v_ahead,
    'orderedAt', r.ordered_at, 'orderedCount', coalesce(r.ordered_count, 0),
    'admittedThrough', coalesce(r.admitted_through, 0),
    'secondsSinceOrder', CASE WHEN r.ordered_at IS NOT NULL THEN extract(epoch FROM v_now - r.ordered_at) END,
    'windowOpenedAt', e.window_opened_at, 'windowClosesAt', e.window_closes_at, 'windowEndedAt', e.window_ended_at,
    'lotsDrawn', coalesce(e.lots_drawn, 0), 'now', v_now);
END $$;

-- The draw's check (called by draw_execute for a pack with a room, before anything is locked): NULL when the
-- member's window is open at p_now, else the refusal and its details. One read of the member's own entry.
-- The cap itself is the draw's per-member limit, counted after the wallet lock (exact: a member's draws run
-- one at a time).
CREATE OR REPLACE FUNCTION waiting_room_draw_refusal(p_gacha text, p_member text, p_now timestamptz) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN e.member_id IS NULL OR e.left_at IS NOT NULL THEN
      jsonb_build_object('code', 'WAITING_ROOM_NOT_JOINED', 'details', '{}'::jsonb)
    WHEN e.window_opened_at IS NULL THEN
      jsonb_build_object('code', 'WAITING_ROOM_NOT_YOUR_TURN', 'details', jsonb_build_object('place', e.place))
    WHEN e.window_ended_at IS NOT NULL OR e.window_closes_at <= p_now THEN
      jsonb_build_object('code', 'WAITING_ROOM_WINDOW_CLOSED', 'details',
        jsonb_build_object('closedAt', coalesce(e.window_ended_at, e.window_closes_at)))
  END
    FROM (SELECT 1) AS one
    LEFT JOIN waiting_room_entries e ON e.gacha_id = p_gacha AND e.member_id = p_member
$$;

-- After a completed draw in a window: the lots it took, and the window's early end when they reach the cap
-- (the next member's turn comes at once instead of when the window would have closed).
CREATE OR REPLACE FUNCTION waiting_room_note_draw(p_gacha text, p_member text, p_count int, p_cap int,
  p_now timestamptz) RETURNS void
LANGUAGE sql AS $$
  UPDATE waiting_room_entries
     SET lots_drawn = lots_drawn + p_count,
         window_ended_at = CASE WHEN window_ended_at IS NULL AND lots_drawn + p_count >= p_cap
                                THEN coalesce(p_now, now()) ELSE window_ended_at END
   WHERE gacha_id = p_gacha AND member_id = p_member AND window_opened_at IS NOT NULL
$$;

-- A member leaves the queue (or ends their window): their place is given up for good.
CREATE OR REPLACE FUNCTION waiting_room_leave(p_gacha text, p_member text, p_now timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE waiting_room_entries
     SET left_at = coalesce(p_now, now()),
         window_ended_at = CASE WHEN window_opened_at IS NOT NULL THEN coalesce(window_ended_at, p_now, now()) END
   WHERE gacha_id = p_gacha AND member_id = p_member AND left_at IS NULL;
  RETURN FOUND;
END $$;
