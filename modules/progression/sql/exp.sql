-- The progression module's SQL: experience accrues inside the draw's transaction (1 exp per coin
-- drawn; the draw passes its cost), and a level crossed by the draw sends its level-up mail in that
-- same transaction (docs/decisions/037). Applied after the migrations by db/module-sql.ts.
--
-- Cost on the draw: the upsert answers the new exp (old = new − p_exp), and one probe of the small
-- progression_levels table by its exp_required key finds the levels in (old, new]; on almost every draw
-- there are none and nothing more happens. A big draw that crosses several levels sends one mail per
-- level, each keyed level-up:<n>, so a level is rewarded once whatever the retries.
CREATE OR REPLACE FUNCTION progression_add_exp(p_member text, p_exp int, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_new bigint;
  l record;
BEGIN
  INSERT INTO member_progress (member_id, exp, updated_at) VALUES (p_member, p_exp, p_at)
  ON CONFLICT (member_id) DO UPDATE SET exp = member_progress.exp + EXCLUDED.exp, updated_at = EXCLUDED.updated_at
  RETURNING exp INTO v_new;
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
END $$;
