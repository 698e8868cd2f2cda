-- A published pack's proof that its hits exist never changes (issue 33 item 8): a tier's certificate
-- (company and number) and its photo kept byte for byte (SHA-256 and path) are fixed with the pack's
-- commitment. The pack editor already refuses every step of a published pack (NOT_DRAFT, decision 030);
-- this trigger refuses any other writer too, the shop's role included. Drafts (no commitment) change freely.
-- One primary-key read of the pack, only when one of these columns is written: the draw never writes them.
CREATE OR REPLACE FUNCTION gacha_tiers_certificate_frozen() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.certificate_company, NEW.certificate_number, NEW.card_photo_sha256, NEW.card_photo_original_path)
       IS DISTINCT FROM
     (OLD.certificate_company, OLD.certificate_number, OLD.card_photo_sha256, OLD.card_photo_original_path)
     AND EXISTS (SELECT 1 FROM gachas g WHERE g.id = OLD.gacha_id AND g.commitment IS NOT NULL) THEN
    RAISE EXCEPTION 'gacha_tiers: the certificate and photo of tier % are fixed by its pack''s commitment', OLD.id
      USING ERRCODE = 'P0001';
  END IF;
  RETURN NEW;
END $$;

DROP TRIGGER IF EXISTS gacha_tiers_certificate_frozen ON gacha_tiers;
CREATE TRIGGER gacha_tiers_certificate_frozen
  BEFORE UPDATE OF certificate_company, certificate_number, card_photo_sha256, card_photo_original_path
  ON gacha_tiers FOR EACH ROW EXECUTE FUNCTION gacha_tiers_certificate_frozen();
