DROP INDEX "triage_records_open_due_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_owner_idx";--> statement-breakpoint
DROP INDEX "triage_records_item_due_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_due_item_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_owner_item_idx";--> statement-breakpoint
CREATE INDEX "triage_records_open_due_idx" ON "triage_records" USING btree ("due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"owner_id","tenant_id","priority","source") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress');--> statement-breakpoint
CREATE INDEX "triage_records_open_owner_idx" ON "triage_records" USING btree ("owner_id","due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"tenant_id","priority","source") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND "triage_records"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_item_due_idx" ON "triage_records" USING btree ("item_id","due_date","owner_id","tenant_id","source","item_removed") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress');--> statement-breakpoint
CREATE INDEX "triage_records_open_due_item_idx" ON "triage_records" USING btree ("due_date","item_id","tenant_id","owner_id","item_removed") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND "triage_records"."due_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_open_owner_item_idx" ON "triage_records" USING btree ("owner_id","due_date","item_id","tenant_id","source") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND "triage_records"."owner_id" IS NOT NULL;