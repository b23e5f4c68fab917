DROP INDEX "triage_records_open_due_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_owner_idx";--> statement-breakpoint
DROP INDEX "triage_records_done_idx";--> statement-breakpoint
-- Records exist already: the column is filled from their items before it is required.
ALTER TABLE "triage_records" ADD COLUMN "source" "item_source";--> statement-breakpoint
UPDATE "triage_records" tr SET "source" = i."source" FROM "items" i WHERE i."id" = tr."item_id";--> statement-breakpoint
-- The UPDATE left the data-version trigger's deferred events pending, and ALTER TABLE refuses a table with pending
-- events (all migrations run in one transaction): fire them now.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
ALTER TABLE "triage_records" ALTER COLUMN "source" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_open_due_idx" ON "triage_records" USING btree ("due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"owner_id","tenant_id","priority","source") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND NOT "triage_records"."item_removed";--> statement-breakpoint
CREATE INDEX "triage_records_open_owner_idx" ON "triage_records" USING btree ("owner_id","due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"tenant_id","priority","source") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND NOT "triage_records"."item_removed" AND "triage_records"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_done_idx" ON "triage_records" USING btree ("done_at" DESC NULLS LAST,"id" DESC,"tenant_id","source") WHERE "triage_records"."state" = 'done' AND NOT "triage_records"."item_removed";