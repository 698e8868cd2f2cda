-- The progression module's SQL: experience accrues inside the draw's transaction (1 exp per coin
-- drawn; the draw passes its cost), and a level crossed by the draw sends its level-up mail in that
-- same transaction (docs/decisions/037). Applied after the migrations by db/module-sql.ts.
--
-- Cost on the draw: the upsert answers the new exp (old = new − p_exp), and one probe of the small
-- progression_levels table by its exp_required key finds the levels in (old, new]; on almost every draw
-- there are none and nothing more happens. A big draw that crosses several levels sends one mail per
-- level, each keyed level-up:<n>, so a level is rewarded once whatever the retries.
-- Answers the member's new exp, so the draw calls it as an expression (no PERFORM statement). Dropped first:
-- CREATE OR REPLACE cannot change the result type (it answered void before docs/decisions/046).
DROP FUNCTION IF EXISTS progression_add_exp(text, int, timestamptz);
CREATE FUNCTION progression_add_exp(p_member text, p_exp int, p_at timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_new bigint;
  l record;
BEGIN
  -- The row exists for every member after the first draw: a plain UPDATE writes one WAL record, where
  -- INSERT … ON CONFLICT DO UPDATE also locks the row (a second record). The first draw inserts; the
  -- upsert stays for a concurrent first (the draw holds the wallet lock, but other callers may not).
  UPDATE member_progress SET exp = exp + p_exp, updated_at = p_at WHERE member_id = p_member
  RETURNING exp INTO v_new;
  IF NOT FOUND THEN
    INSERT INTO member_progress (member_id, exp, updated_at) VALUES (p_member, p_exp, p_at)
    ON CONFLICT (member_id) DO UPDATE SET exp = member_progress.exp + EXCLUDED.exp, updated_at = EXCLUDED.updated_at
    RETURNING exp INTO v_new;
  END IF;
  FOR l IN
    SELECT level, reward_coins, claim_days FROM progression_levels
     WHERE exp_required > v_new - p_exp AND exp_required <= v_new
     ORDER BY level
  LOOP
    PERFORM mailbox_notify(p_member, 'level_up', 'level-up:' || l.level,
      format('レベル%sに到達しました', l.level),
      format(E'おめでとうございます！レベル%sに到達しました。', l.level) ||
        CASE WHEN l.reward_coins > 0
          THEN format(E'\nレベルアップ報酬として無料コイン%s枚をお贈りします。受け取り期限までに「受け取る」を押してください。',
                      to_char(l.reward_coins, 'FM999,999,999'))
          ELSE '' END,
      l.reward_coins, p_at + make_interval(days => l.claim_days), 'level_up', p_at);
  END LOOP;
  RETURN v_new;
END $$;
