-- The progression module's SQL: experience accrues inside the draw's transaction (1 exp per coin
-- drawn; the draw passes its cost), and a level crossed by the draw sends its level-up mail in that
-- same transaction (docs/decisions/037). Applied after the migrations by db/module-sql.ts.
--
-- Cost on the draw: the upsert answers the new exp (old = new − p_exp), and one probe of the small
-- progression_levels table by its exp_required key finds the levels in (old, new]; on almost every draw
-- there are none and nothing more happens. A draw that crosses several levels (a 100連) sends ONE mail
-- naming every level crossed and each level's reward, with their sum attached (issue 29 item 9): keyed
-- level-up:<n> for one level, level-up:<a>,<b>,… for several. Each level is rewarded once: the member's
-- exp only rises under its row lock, so two draws never cross the same level, and a level already named
-- by an earlier mail's key (thresholds changed since) is left out (mailbox_numbered_key_used).
-- Answers the member's new exp, so the draw calls it as an expression (no PERFORM statement). Dropped first:
-- CREATE OR REPLACE cannot change the result type (it answered void before docs/decisions/046).
-- The levels whose threshold lies in (p_from, p_to] and that no earlier level-up mail named: their numbers,
-- their rewards' sum, the longest claim window and one line per level for the mail. One row, NULL levels when
-- none. A SQL function the planner inlines into the caller's statement (no executor run of its own).
CREATE OR REPLACE FUNCTION progression_levels_crossed(p_member text, p_from bigint, p_to bigint)
RETURNS TABLE (levels int[], coins bigint, days int, lines text)
LANGUAGE sql STABLE AS $$
  SELECT array_agg(level ORDER BY level), coalesce(sum(reward_coins), 0)::bigint, max(claim_days),
         string_agg(format('・レベル%s：%s', level,
                           CASE WHEN reward_coins > 0 THEN format('無償コイン%s枚', to_char(reward_coins, 'FM999,999,999'))
                                ELSE '報酬なし' END), E'\n' ORDER BY level)
    FROM progression_levels
   WHERE exp_required > p_from AND exp_required <= p_to
     AND NOT mailbox_numbered_key_used(p_member, 'level-up:', level)
$$;

DROP FUNCTION IF EXISTS progression_add_exp(text, int, timestamptz);
CREATE FUNCTION progression_add_exp(p_member text, p_exp int, p_at timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_new bigint;
  v_levels int[];
  v_coins bigint;
  v_days int;
  v_lines text;
  v_first int;
  v_last int;
BEGIN
  -- The row exists for every member after the first draw: a plain UPDATE writes one WAL record, where
  -- INSERT … ON CONFLICT DO UPDATE also locks the row (a second record). The update and the probe for the
  -- levels crossed are one statement (progression_levels_crossed is inlined into it). The first draw
  -- inserts, then probes; the upsert stays for a concurrent first (the draw holds the wallet lock, but other
  -- callers may not).
  WITH u AS (
    UPDATE member_progress SET exp = exp + p_exp, updated_at = p_at WHERE member_id = p_member RETURNING exp
  )
  SELECT u.exp, c.levels, c.coins, c.days, c.lines INTO v_new, v_levels, v_coins, v_days, v_lines
    FROM u CROSS JOIN LATERAL progression_levels_crossed(p_member, u.exp - p_exp, u.exp) c;
  IF NOT FOUND THEN
    INSERT INTO member_progress (member_id, exp, updated_at) VALUES (p_member, p_exp, p_at)
    ON CONFLICT (member_id) DO UPDATE SET exp = member_progress.exp + EXCLUDED.exp, updated_at = EXCLUDED.updated_at
    RETURNING exp INTO v_new;
    SELECT c.levels, c.coins, c.days, c.lines INTO v_levels, v_coins, v_days, v_lines
      FROM progression_levels_crossed(p_member, v_new - p_exp, v_new) c;
  END IF;
  IF v_levels IS NULL THEN
    RETURN v_new;
  END IF;
  v_first := v_levels[1];
  v_last := v_levels[array_length(v_levels, 1)];
  IF array_length(v_levels, 1) = 1 THEN
    PERFORM mailbox_notify(p_member, 'level_up', 'level-up:' || v_first,
      format('レベル%sに到達しました', v_first),
      format(E'おめでとうございます！レベル%sに到達しました。', v_first) ||
        CASE WHEN v_coins > 0
          THEN format(E'\nレベルアップ報酬として無償コイン%s枚をお贈りします。受け取り期限までに「受け取る」を押してください。',
                      to_char(v_coins, 'FM999,999,999'))
          ELSE '' END,
      v_coins::int, p_at + make_interval(days => v_days), 'level_up', p_at);
  ELSE
    PERFORM mailbox_notify(p_member, 'level_up', 'level-up:' || array_to_string(v_levels, ','),
      format('レベル%s〜%sに到達しました', v_first, v_last),
      format(E'おめでとうございます！今回の抽選でレベルが%s上がり、レベル%sに到達しました。', array_length(v_levels, 1), v_last) ||
        E'\n' || v_lines ||
        CASE WHEN v_coins > 0
          THEN format(E'\nレベルアップ報酬の合計として無償コイン%s枚をお贈りします。受け取り期限までに「受け取る」を押してください。',
                      to_char(v_coins, 'FM999,999,999'))
          ELSE '' END,
      v_coins::int, p_at + make_interval(days => v_days), 'level_up', p_at);
  END IF;
  RETURN v_new;
END $$;
