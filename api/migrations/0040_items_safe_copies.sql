ALTER TABLE "items" ADD COLUMN "body_safe" text;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "description_safe" text;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "safe_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "safe_source" text;--> statement-breakpoint
-- The copies are of the text their fingerprint names (md5 of the description, then of the body, as lib/html.ts
-- safeSourceOf makes it): a write of the text without new copies (no writer of the product does that) marks them out
-- of date, so a stale copy is never sent; the next start makes them again.
CREATE FUNCTION "radar_items_safe_copies_stale"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.safe_version <> 0
     AND NEW.safe_source IS DISTINCT FROM md5(coalesce(NEW.description, '')) || md5(coalesce(NEW.body_html, '')) THEN
    NEW.safe_version := 0;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "items_safe_copies_stale" BEFORE INSERT OR UPDATE OF "body_html", "description", "safe_source", "safe_version" ON "items"
  FOR EACH ROW EXECUTE FUNCTION "radar_items_safe_copies_stale"();
