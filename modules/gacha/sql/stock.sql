-- The gacha module's SQL over physical stock (docs/decisions/023): stock_movements is append-only, and
-- one function moves the cards of a set of prizes (released, shipped, returned, missing, damaged). The
-- draw's prize_convert calls it in the conversion's own statement; the shipping desk through stock.ts.
-- Lock order: whatever the caller holds (request → prizes → wallet), then stock cards in id order.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

CREATE OR REPLACE FUNCTION stock_movements_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'P0001';
END $$;

DROP TRIGGER IF EXISTS stock_movements_no_update_delete ON stock_movements;
CREATE TRIGGER stock_movements_no_update_delete BEFORE UPDATE OR DELETE ON stock_movements
  FOR EACH ROW EXECUTE FUNCTION stock_movements_append_only();

DROP TRIGGER IF EXISTS stock_movements_no_truncate ON stock_movements;
CREATE TRIGGER stock_movements_no_truncate BEFORE TRUNCATE ON stock_movements
  FOR EACH STATEMENT EXECUTE FUNCTION stock_movements_append_only();

-- Only the owner keeps UPDATE, DELETE and TRUNCATE (and the triggers refuse even the owner).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT DISTINCT a.grantee::regrole::text AS grantee
             FROM pg_class c, aclexplode(c.relacl) a
            WHERE c.oid = 'stock_movements'::regclass AND a.grantee <> c.relowner AND a.grantee <> 0
              AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE') LOOP
    EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON stock_movements FROM %s', r.grantee);
  END LOOP;
  IF EXISTS (SELECT 1 FROM pg_class c, aclexplode(c.relacl) a
              WHERE c.oid = 'stock_movements'::regclass AND a.grantee = 0 AND a.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE')) THEN
    REVOKE UPDATE, DELETE, TRUNCATE ON stock_movements FROM PUBLIC;
  END IF;
END $$;

-- The card each prize is fulfilled with: its substitute if one was assigned, else its tier's stock
-- card (NULL: an untracked tier of a pack published before stock existed).
CREATE OR REPLACE FUNCTION gacha_stock_cards_of(p_prizes uuid[], p_tiers text[])
RETURNS TABLE (prize_id uuid, gacha_id text, stock_card_id uuid)
LANGUAGE sql STABLE AS $$
  SELECT u.prize_id, t.gacha_id, coalesce(pc.stock_card_id, t.stock_card_id)
    FROM unnest(p_prizes, p_tiers) AS u(prize_id, tier_id)
    JOIN gacha_tiers t ON t.id = u.tier_id
    LEFT JOIN stock_prize_cards pc ON pc.prize_id = u.prize_id
$$;

-- Moves the cards of the given prizes (parallel arrays: prize ids and their tier ids), one card each:
--   released  (converted to coins):          reserved − 1
--   reserved  (a conversion undone, 057):     reserved + 1
--   shipped   (left in a parcel):             on_hand − 1, reserved − 1
--   returned  (the parcel came back):         on_hand + 1, reserved + 1
--   missing, damaged (the card is gone):      on_hand − 1, reserved − 1
-- One counter update per card (in id order, after locking them in that order) and one movement per
-- prize. Untracked prizes are skipped. Answers the number of prizes moved. A counter leaving its range
-- (a check constraint) means a broken invariant, and the caller's transaction fails.
CREATE OR REPLACE FUNCTION gacha_stock_move_prizes(p_prizes uuid[], p_tiers text[], p_kind text, p_request uuid,
  p_note text, p_now timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := coalesce(p_now, now());
  v_on int; v_res int; v_n int;
BEGIN
  IF p_kind = 'released' THEN v_on := 0; v_res := -1;
  ELSIF p_kind = 'reserved' THEN v_on := 0; v_res := 1;
  ELSIF p_kind IN ('shipped', 'missing', 'damaged') THEN v_on := -1; v_res := -1;
  ELSIF p_kind = 'returned' THEN v_on := 1; v_res := 1;
  ELSE RAISE EXCEPTION 'gacha_stock_move_prizes: unknown kind %', p_kind;
  END IF;
  IF coalesce(cardinality(p_prizes), 0) = 0 THEN
    RETURN 0;
  END IF;
  PERFORM 1 FROM stock_cards s
   WHERE s.id IN (SELECT c.stock_card_id FROM gacha_stock_cards_of(p_prizes, p_tiers) c)
   ORDER BY s.id FOR UPDATE;
  UPDATE stock_cards s
     SET on_hand = s.on_hand + v_on * g.n, reserved = s.reserved + v_res * g.n, updated_at = v_now
    FROM (SELECT c.stock_card_id, count(*)::int AS n FROM gacha_stock_cards_of(p_prizes, p_tiers) c
           WHERE c.stock_card_id IS NOT NULL GROUP BY c.stock_card_id) g
   WHERE s.id = g.stock_card_id;
  INSERT INTO stock_movements (stock_card_id, kind, on_hand_delta, reserved_delta, gacha_id, prize_id, request_id, note, at)
  SELECT c.stock_card_id, p_kind, v_on, v_res, c.gacha_id, c.prize_id, p_request, p_note, v_now
    FROM gacha_stock_cards_of(p_prizes, p_tiers) c WHERE c.stock_card_id IS NOT NULL
   ORDER BY c.stock_card_id, c.prize_id;
  GET DIAGNOSTICS v_n = ROW_COUNT;
  RETURN v_n;
END $$;

-- The cards of a sold-out pack's 個人キリ番賞 (decision 088) that no member reached: each such tier reserved its
-- most (Σ ⌊lots ÷ n⌋), and once the pack is sold out only the numbers reached were won. Called in the sell-out's
-- transaction (gacha_mark_sold_out), after the draw's own prizes; the cards locked in id order.
CREATE OR REPLACE FUNCTION gacha_release_personal_stock(p_gacha text, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT t.stock_card_id, t.label,
           t.quantity - (SELECT count(*) FROM (SELECT count(*) AS n FROM gacha_lots l
                                                  WHERE l.gacha_id = p_gacha AND l.draw_id IS NOT NULL
                                                  GROUP BY l.member_id) m, unnest(t.personal_kiriban_at) k
                          WHERE k <= m.n)::int AS n
      FROM gacha_tiers t
     WHERE t.gacha_id = p_gacha AND t.personal_kiriban_at IS NOT NULL AND t.stock_card_id IS NOT NULL
     ORDER BY t.stock_card_id
  LOOP
    CONTINUE WHEN r.n <= 0;
    PERFORM 1 FROM stock_cards s WHERE s.id = r.stock_card_id FOR UPDATE;
    UPDATE stock_cards SET reserved = reserved - r.n, updated_at = p_at WHERE id = r.stock_card_id;
    INSERT INTO stock_movements (stock_card_id, kind, on_hand_delta, reserved_delta, gacha_id, note, at)
    VALUES (r.stock_card_id, 'released', 0, -r.n, p_gacha, r.label, p_at);
  END LOOP;
END $$;

-- The cards of a sold-out pack's 天井賞 (decision 089) that were not given: the tier reserved its most (⌊lots ÷ N⌋)
-- and p_given were won (the draw module counts its prizes, this draw's included). Called in the sell-out's
-- transaction by the draw that sold the pack out; the card locked before it is written.
CREATE OR REPLACE FUNCTION gacha_release_ceiling_stock(p_gacha text, p_given int, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  SELECT t.stock_card_id, t.label, t.quantity - p_given AS n INTO r
    FROM gacha_tiers t
   WHERE t.gacha_id = p_gacha AND t.ceiling_after IS NOT NULL AND t.stock_card_id IS NOT NULL;
  IF NOT FOUND OR r.n <= 0 THEN
    RETURN;
  END IF;
  PERFORM 1 FROM stock_cards s WHERE s.id = r.stock_card_id FOR UPDATE;
  UPDATE stock_cards SET reserved = reserved - r.n, updated_at = p_at WHERE id = r.stock_card_id;
  INSERT INTO stock_movements (stock_card_id, kind, on_hand_delta, reserved_delta, gacha_id, note, at)
  VALUES (r.stock_card_id, 'released', 0, -r.n, p_gacha, r.label, p_at);
END $$;
