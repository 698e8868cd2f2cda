-- The limits module's SQL (docs/decisions/035): what the draw reads of a member's self-limits, inside the
-- draw's own call. One primary-key read of member_limits; no row (most members) answers no row.
-- Applied after the migrations by db/module-sql.ts (docs/decisions/010).

-- The draw-spend limit in force at p_now (a due raise folded in, as limitsInForce does in TypeScript)
-- and the end of a self-exclusion still running (NULL when none).
CREATE OR REPLACE FUNCTION limits_draw_terms(p_member text, p_now timestamptz)
RETURNS TABLE (draw_limit_coins int, excluded_until timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN l.draw_pending_at IS NOT NULL AND l.draw_pending_at <= p_now
              THEN l.draw_pending_coins ELSE l.draw_limit_coins END,
         CASE WHEN l.excluded_until > p_now THEN l.excluded_until END
    FROM member_limits l
   WHERE l.member_id = p_member
$$;
