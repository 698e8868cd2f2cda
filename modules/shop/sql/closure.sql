-- The shop module's SQL for the closure (docs/decisions/085): whether sales have stopped, for the money
-- paths that must refuse exactly (the draw's draw_execute and the checkout, inside their own transactions),
-- and the SALES_STOPPED refusal's details. One read of the partial unique index of the live closure (at most
-- one row); no live closure is an open shop.

-- Whether a live (not cancelled) closure's sales stop has come, as of the calling statement's snapshot and
-- the transaction's time. PL/pgSQL keeps its plan for the session (docs/decisions/046).
CREATE OR REPLACE FUNCTION shop_sales_stopped() RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (SELECT 1 FROM shop_closures WHERE cancelled_at IS NULL AND sales_stop_at <= now());
END $$;

-- Why a sale is refused now, in one statement for the draw (its statement budget, bench/budgets/draw.json):
-- 'MAINTENANCE' while maintenance is on (docs/decisions/025), else 'SALES_STOPPED' once a live closure's sales stop
-- has come, else NULL.
CREATE OR REPLACE FUNCTION shop_sales_closed() RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN CASE
    WHEN coalesce((SELECT maintenance FROM shop_state WHERE id = 1), false) THEN 'MAINTENANCE'
    WHEN EXISTS (SELECT 1 FROM shop_closures WHERE cancelled_at IS NULL AND sales_stop_at <= now()) THEN 'SALES_STOPPED'
  END;
END $$;

-- The details of the SALES_STOPPED refusal: when sales stopped and until when refunds are accepted (ISO).
-- Called only on the refusing path.
CREATE OR REPLACE FUNCTION shop_closure_details() RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT jsonb_build_object(
       'salesStopAt', to_char(sales_stop_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'refundDeadline', to_char(refund_deadline AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
       FROM shop_closures WHERE cancelled_at IS NULL),
    '{}'::jsonb)
$$;
