-- The identity module's SQL over its tables (users, sessions), for the draw's one-round-trip path
-- (docs/decisions/006). Applied after the migrations by db/module-sql.ts (docs/decisions/010).
-- PL/pgSQL, not SQL: PostgreSQL 15 plans a SQL function that it cannot inline (one with OUT parameters, or
-- a scalar one reading a table) afresh on every call, about 0.1 ms each on the draw's path; PL/pgSQL keeps
-- the plan for the session (docs/decisions/046).

-- The member behind a session token, and whether the session is due for better-auth's refresh.
-- p_refresh_before comes from modules/identity/constants.ts (SESSION_MAX_AGE − SESSION_UPDATE_AGE).
CREATE OR REPLACE FUNCTION identity_session_member(p_token text, p_now timestamptz, p_refresh_before interval,
  OUT member_id text, OUT refresh boolean)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  SELECT u.id, (s.expires_at - p_now) < p_refresh_before INTO member_id, refresh
    FROM sessions s JOIN users u ON u.id = s.user_id
   WHERE s.token = p_token AND s.expires_at > p_now
     AND NOT (coalesce(u.banned, false) AND (u.ban_expires IS NULL OR u.ban_expires > p_now));
END $$;

-- A member's role ('user' or 'admin' = staff), or NULL when there is no such member.
CREATE OR REPLACE FUNCTION identity_member_role(p_member text) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT coalesce(u.role, 'user') FROM users u WHERE u.id = p_member);
END $$;
