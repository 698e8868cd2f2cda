-- Issue 28: staff find a member by the number the member sees (会員ID on マイページ), and the shipping
-- desk finds the inquiries about one request. The number is a hash of the id (modules/identity/member-code.ts),
-- so it is found through an expression index over the same derivation in SQL; the function lives here,
-- not in modules/identity/sql, because the index needs it before the modules' SQL is applied (decision 010).
-- Immutable (the index needs it): convert_to is only stable because of the server encoding, which is UTF8
-- on both engines and never changes under a database.
CREATE OR REPLACE FUNCTION identity_member_code(p_member text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  digest bytea := sha256(convert_to('member-code:' || p_member, 'UTF8'));
  alphabet constant text := '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  -- 31^10: the ten digits of the number depend only on the hash modulo this, which fits a bigint
  -- (rest * 256 stays below 2^63).
  modulus constant bigint := 819628286980801;
  rest bigint := 0;
  code text := '';
BEGIN
  FOR i IN 0..31 LOOP
    rest := (rest * 256 + get_byte(digest, i)) % modulus;
  END LOOP;
  FOR i IN 1..10 LOOP
    code := code || substr(alphabet, (rest % 31)::int + 1, 1);
    rest := rest / 31;
  END LOOP;
  RETURN substr(code, 1, 5) || '-' || substr(code, 6);
END $$;
--> statement-breakpoint
CREATE INDEX "users_member_code_idx" ON "users" USING btree (identity_member_code("id"));--> statement-breakpoint
CREATE INDEX "inquiries_related_idx" ON "inquiries" USING btree ("related_kind","related_id");
