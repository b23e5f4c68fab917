DROP INDEX "triage_records_owner_idx";--> statement-breakpoint
DROP INDEX "triage_records_state_due_idx";--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "item_removed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_open_due_idx" ON "triage_records" USING btree ("due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"owner_id","tenant_id") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND NOT "triage_records"."item_removed";--> statement-breakpoint
CREATE INDEX "triage_records_open_owner_idx" ON "triage_records" USING btree ("owner_id","due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"tenant_id") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND NOT "triage_records"."item_removed" AND "triage_records"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_done_idx" ON "triage_records" USING btree ("done_at" DESC NULLS LAST,"id" DESC,"tenant_id") WHERE "triage_records"."state" = 'done' AND NOT "triage_records"."item_removed";--> statement-breakpoint
UPDATE "triage_records" tr SET "item_removed" = true FROM "items" i WHERE i."id" = tr."item_id" AND i."is_removed";--> statement-breakpoint
-- The UPDATE left the data-version trigger's deferred events pending, and ALTER TABLE and CREATE INDEX refuse a table
-- with pending events (an upgrade runs every newer migration in one transaction): fire them now. Added after release,
-- for installations that upgrade across this version with data.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
-- A record follows its item out of (and back into) the feed, whoever writes is_removed (the sync, an admin, a hand-written UPDATE).
CREATE FUNCTION "radar_triage_item_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "triage_records" SET "item_removed" = NEW."is_removed" WHERE "item_id" = NEW."id" AND "item_removed" IS DISTINCT FROM NEW."is_removed";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "items_triage_item_removed" AFTER UPDATE OF "is_removed" ON "items"
  FOR EACH ROW WHEN (OLD."is_removed" IS DISTINCT FROM NEW."is_removed") EXECUTE FUNCTION "radar_triage_item_removed"();
