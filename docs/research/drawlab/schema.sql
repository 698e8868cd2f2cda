-- drawlab schema (PostgreSQL 15)
DROP TABLE IF EXISTS ledger, draw_results, draws, lots, packs, members CASCADE;
DROP SEQUENCE IF EXISTS pack1_pos_seq;

CREATE TABLE members (
  id      bigint PRIMARY KEY,
  balance bigint NOT NULL CHECK (balance >= 0)          -- wallet, never negative
);

CREATE TABLE packs (
  id            bigint PRIMARY KEY,
  total         int    NOT NULL,                         -- N lots
  price         bigint NOT NULL,                         -- coins per lot
  next_position int    NOT NULL DEFAULT 1,               -- counter for B/C/D
  CHECK (next_position BETWEEN 1 AND total + 1)
);

-- position = the fixed, secret order. draw_id NULL = unclaimed.
CREATE TABLE lots (
  pack_id  bigint NOT NULL REFERENCES packs(id),
  position int    NOT NULL,
  tier     smallint NOT NULL,
  draw_id  bigint,
  PRIMARY KEY (pack_id, position)
);

CREATE TABLE draws (
  id         bigserial PRIMARY KEY,
  member_id  bigint NOT NULL REFERENCES members(id),
  idem_key   text   NOT NULL,
  pack_id    bigint NOT NULL REFERENCES packs(id),
  k          int    NOT NULL CHECK (k > 0),
  cost       bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member_id, idem_key)                           -- idempotency
);

CREATE TABLE draw_results (
  draw_id  bigint NOT NULL REFERENCES draws(id),
  pack_id  bigint NOT NULL,
  position int    NOT NULL,
  tier     smallint NOT NULL,
  PRIMARY KEY (draw_id, position),
  UNIQUE (pack_id, position)                             -- a lot can be won once (belt and braces)
);

CREATE TABLE ledger (
  id            bigserial PRIMARY KEY,
  member_id     bigint NOT NULL,
  draw_id       bigint,
  amount        bigint NOT NULL,                         -- negative = debit
  balance_after bigint NOT NULL,
  kind          text   NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

-- ledger is append-only
CREATE OR REPLACE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'ledger is append-only'; END $$;
CREATE TRIGGER ledger_no_update_delete BEFORE UPDATE OR DELETE ON ledger
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();

-- FKs from the hot tables to members/packs would take FOR KEY SHARE locks on
-- the member row and the pack row for every insert; they are kept here for
-- integrity (KEY SHARE does not conflict with the FOR NO KEY UPDATE taken by
-- the balance / counter UPDATEs, so they do not add blocking).
