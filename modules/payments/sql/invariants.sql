-- The payments module's SQL: the coin shop's invariants (docs/decisions/008). Applied after the
-- migrations by db/module-sql.ts (docs/decisions/010).

-- The coin shop's invariants: a credited order has exactly its coins in the ledger, once; nothing
-- is credited for an order that was not; and no shop purchase entry (key purchase:…) exists
-- without its order. (Operators' and tests' own paid grants use other keys.)
CREATE OR REPLACE FUNCTION payments_check_invariants() RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(v), '[]'::jsonb) FROM (
    SELECT jsonb_build_object('check', 'credit_mismatch', 'orderId', o.id, 'status', o.status,
             'paid', coalesce(p.amount, 0), 'bonus', coalesce(b.amount, 0)) AS v
      FROM payment_orders o
      LEFT JOIN (SELECT ref, sum(amount) AS amount, count(*) AS n FROM coin_ledger
                  WHERE reason = 'purchase' GROUP BY ref) p ON p.ref = o.id::text
      LEFT JOIN (SELECT ref, sum(amount) AS amount, count(*) AS n FROM coin_ledger
                  WHERE reason = 'purchase_bonus' GROUP BY ref) b ON b.ref = o.id::text
     WHERE (o.credited_at IS NOT NULL AND (coalesce(p.amount, 0) <> o.paid_coins OR p.n <> 1
             OR coalesce(b.amount, 0) <> o.bonus_coins + o.rank_bonus_coins
             OR (o.bonus_coins + o.rank_bonus_coins > 0 AND b.n <> 1)))
        OR (o.credited_at IS NULL AND (p.n IS NOT NULL OR b.n IS NOT NULL))
    UNION ALL
    SELECT jsonb_build_object('check', 'purchase_without_order', 'ledgerId', e.id)
      FROM coin_ledger e
     WHERE e.idem_key LIKE 'purchase:%'
       AND NOT EXISTS (SELECT 1 FROM payment_orders o WHERE o.id::text = e.ref)
    UNION ALL
    SELECT jsonb_build_object('check', 'reversal_mismatch', 'orderId', o.id,
             'reversed', coalesce(r.amount, 0), 'recorded', o.reversed_paid + o.reversed_free)
      FROM payment_orders o
      LEFT JOIN (SELECT ref, -sum(amount) AS amount FROM coin_ledger
                  WHERE reason = 'purchase_reversal' GROUP BY ref) r ON r.ref = o.id::text
     WHERE coalesce(r.amount, 0) <> o.reversed_paid + o.reversed_free
  ) checks
$$;
