-- The wallet's balance as other modules' SQL reads it (the draw's and the conversion's answers).
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- {paid, free} of the cached balance; zeros without a wallet. PL/pgSQL keeps its plan for the session
-- (a SQL function reading a table is planned again on every call: docs/decisions/046).
CREATE OR REPLACE FUNCTION wallet_balance(p_member text) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT jsonb_build_object('paid', coalesce(max(w.paid), 0), 'free', coalesce(max(w.free), 0))
            FROM wallets w WHERE w.member_id = p_member);
END $$;
