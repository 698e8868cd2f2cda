-- The shop module's SQL: whether the shop is in maintenance, for the money paths that must refuse
-- exactly (the draw's draw_execute, inside its own transaction: docs/decisions/025). One primary-key
-- read of a one-row table; a missing row is an open shop.

-- Whether maintenance mode is on, as of the calling statement's snapshot. PL/pgSQL keeps its plan for
-- the session (a SQL function reading a table is planned again on every call: docs/decisions/046).
CREATE OR REPLACE FUNCTION shop_in_maintenance() RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN coalesce((SELECT maintenance FROM shop_state WHERE id = 1), false);
END $$;

-- The details of the MAINTENANCE refusal: the planned end (ISO, or null) and the members' message
-- (null: the default text). Called only on the refusing path.
CREATE OR REPLACE FUNCTION shop_maintenance_details() RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT jsonb_build_object(
       'endsAt', to_char(maintenance_ends_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
       'notice', maintenance_message)
       FROM shop_state WHERE id = 1),
    jsonb_build_object('endsAt', NULL, 'notice', NULL))
$$;
