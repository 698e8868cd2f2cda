-- The wallet's hold on paid coins' expiry for a closing shop (docs/decisions/085, 資金決済法 第20条): a paid coin
-- left unused when the shop announces its closure must stay refundable until the refund deadline, so no paid
-- grant with coins left may expire before it. Raising an expiry only ever gives the member more time; free coins
-- keep theirs. Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- Raises to p_until the expiry of every paid grant that still has coins and would expire before it; answers how
-- many grants it moved. Each grant's member's wallet is locked first (the lock order of every change of a grant),
-- one member at a time, so a spend in flight is never overtaken. Safe to repeat (a second call moves nothing).
CREATE OR REPLACE FUNCTION wallet_hold_paid_expiry(p_until timestamptz) RETURNS int
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE
  m record; v_moved int; v_total int := 0;
BEGIN
  IF p_until IS NULL THEN RAISE EXCEPTION 'wallet_hold_paid_expiry: p_until is required'; END IF;
  FOR m IN SELECT DISTINCT member_id FROM coin_grants
            WHERE spendable AND kind = 'paid' AND expires_at < p_until LOOP
    PERFORM 1 FROM wallets WHERE member_id = m.member_id FOR UPDATE;
    UPDATE coin_grants SET expires_at = p_until
     WHERE member_id = m.member_id AND spendable AND kind = 'paid' AND expires_at < p_until;
    GET DIAGNOSTICS v_moved = ROW_COUNT;
    v_total := v_total + v_moved;
  END LOOP;
  RETURN v_total;
END $$;
