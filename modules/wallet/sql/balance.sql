-- The wallet's balance as other modules' SQL reads it (the draw's and the conversion's answers).
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- {paid, free} of the cached balance; zeros without a wallet.
CREATE OR REPLACE FUNCTION wallet_balance(p_member text) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('paid', coalesce(max(w.paid), 0), 'free', coalesce(max(w.free), 0))
    FROM wallets w WHERE w.member_id = p_member
$$;
