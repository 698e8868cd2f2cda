-- The API's draw in ONE round trip: the session is read in the same call as the draw
-- (docs/decisions/006). The identity module owns this function over its tables; the draw module
-- calls it. A session due for its daily refresh answers refresh = true, and the server then lets
-- better-auth handle the request the slower way.
CREATE OR REPLACE FUNCTION identity_session_member(p_token text, p_now timestamptz, p_refresh_before interval,
  OUT member_id text, OUT refresh boolean)
LANGUAGE sql STABLE AS $$
  SELECT u.id, (s.expires_at - p_now) < p_refresh_before
    FROM sessions s JOIN users u ON u.id = s.user_id
   WHERE s.token = p_token AND s.expires_at > p_now
     AND NOT (coalesce(u.banned, false) AND (u.ban_expires IS NULL OR u.ban_expires > p_now))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION draw_execute_for_session(p_token text, p_refresh_before interval, p_gacha text, p_count int,
  p_key text, p_hash text, p_rank int, p_decide_window interval, p_now timestamptz) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  SELECT * INTO v FROM identity_session_member(p_token, coalesce(p_now, now()), p_refresh_before);
  IF v.member_id IS NULL THEN
    RETURN jsonb_build_object('status', 'rejected', 'code', 'UNAUTHENTICATED', 'details', '{}'::jsonb);
  END IF;
  IF v.refresh THEN
    RETURN jsonb_build_object('status', 'refresh');
  END IF;
  RETURN draw_execute(v.member_id, p_gacha, p_count, p_key, p_hash, p_rank, p_decide_window, p_now);
END $$;
