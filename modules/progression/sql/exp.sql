-- The progression module's SQL: experience accrues inside the draw's transaction (1 exp per coin
-- drawn; the draw passes its cost). Applied after the migrations by db/module-sql.ts.
CREATE OR REPLACE FUNCTION progression_add_exp(p_member text, p_exp int, p_at timestamptz) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO member_progress (member_id, exp, updated_at) VALUES (p_member, p_exp, p_at)
  ON CONFLICT (member_id) DO UPDATE SET exp = member_progress.exp + EXCLUDED.exp, updated_at = EXCLUDED.updated_at
$$;
