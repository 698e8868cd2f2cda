-- The mailbox's SQL: notifyMember for callers that are themselves SQL (the draw's level-up mail, written
-- in the draw's own transaction). Same rules as notifyMember in index.ts: one personal mail per (member,
-- dedupe key), a repeat writes nothing; the body is plain text, one paragraph per non-empty line; an
-- opted-in member's email follows from the mailbox.email-notices job (email_pending).
-- Answers the new mail's id, or NULL when the key had been used. Applied after the migrations.
CREATE OR REPLACE FUNCTION mailbox_notify(p_member text, p_category text, p_key text, p_subject text, p_body text,
  p_coins int, p_claim_until timestamptz, p_reason text, p_at timestamptz) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
  v_attached boolean := coalesce(p_coins, 0) > 0;
BEGIN
  INSERT INTO mails (audience, member_id, category, subject, body, attachment_coins, claim_until, attachment_reason,
                     dedupe_key, send_at, email_pending)
  VALUES ('personal', p_member, p_category, p_subject,
          (SELECT coalesce(jsonb_agg(jsonb_build_object('type', 'paragraph', 'text', btrim(line), 'spans', '[]'::jsonb)
                                     ORDER BY n), '[]'::jsonb)
             FROM unnest(string_to_array(p_body, E'\n')) WITH ORDINALITY AS l(line, n)
            WHERE btrim(line) <> ''),
          CASE WHEN v_attached THEN p_coins END,
          CASE WHEN v_attached THEN p_claim_until END,
          CASE WHEN v_attached THEN coalesce(p_reason, 'mail_attachment') END,
          p_key, coalesce(p_at, now()), true)
  ON CONFLICT ON CONSTRAINT mails_member_dedupe DO NOTHING
  RETURNING id INTO v_id;
  RETURN v_id;
END $$;

-- Whether the member already has a system mail keyed `<prefix><n>` or `<prefix><a>,<b>,…` naming n: one mail
-- may cover several numbered events (the level-up mail of a draw that crossed several levels, issue 29), and
-- each number is still mailed once whatever later changes to the thresholds. Reads the member's keys by the
-- (member_id, dedupe_key) unique index; callers ask only when something happened (a level crossed).
CREATE OR REPLACE FUNCTION mailbox_numbered_key_used(p_member text, p_prefix text, p_n int) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM mails
     WHERE member_id = p_member
       AND left(dedupe_key, length(p_prefix)) = p_prefix
       AND substr(dedupe_key, length(p_prefix) + 1) ~ '^[0-9]+(,[0-9]+)*$'
       AND p_n::text = ANY (string_to_array(substr(dedupe_key, length(p_prefix) + 1), ','))
  )
$$;
