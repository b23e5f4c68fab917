DROP INDEX "triage_records_open_due_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_owner_idx";--> statement-breakpoint
DROP INDEX "triage_records_item_due_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_due_item_idx";--> statement-breakpoint
DROP INDEX "triage_records_open_owner_item_idx";--> statement-breakpoint
DROP INDEX "triage_records_done_idx";--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "triage_start" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "closed_reason" text;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "opened_on" date DEFAULT (now() AT TIME ZONE 'UTC')::date NOT NULL;--> statement-breakpoint
INSERT INTO "app_state" ("key", "value", "updated_at") SELECT 'triage-start', to_jsonb(min("created_at")), now() FROM "triage_records" HAVING count(*) > 0 ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "overdue_from" date GENERATED ALWAYS AS (CASE WHEN due_source IN ('manual', 'action_required') THEN NULL ELSE opened_on END) STORED;--> statement-breakpoint
CREATE INDEX "triage_records_open_due_idx" ON "triage_records" USING btree ("due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"owner_id","tenant_id","priority","source","overdue_from") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress');--> statement-breakpoint
CREATE INDEX "triage_records_open_owner_idx" ON "triage_records" USING btree ("owner_id","due_date" ASC NULLS LAST,(CASE "priority" WHEN 'high' THEN 0 WHEN 'medium' THEN 1 ELSE 2 END),"id" DESC,"tenant_id","priority","source","overdue_from") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND "triage_records"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_item_due_idx" ON "triage_records" USING btree ("item_id","due_date","owner_id","tenant_id","source","item_removed","overdue_from") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress');--> statement-breakpoint
CREATE INDEX "triage_records_open_due_item_idx" ON "triage_records" USING btree ("due_date","item_id","tenant_id","owner_id","item_removed","overdue_from") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND "triage_records"."due_date" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_open_owner_item_idx" ON "triage_records" USING btree ("owner_id","due_date","item_id","tenant_id","source","overdue_from") WHERE "triage_records"."state" IN ('new', 'relevant', 'in_progress') AND "triage_records"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_done_idx" ON "triage_records" USING btree ("done_at" DESC NULLS LAST,"id" DESC,"tenant_id","source") WHERE "triage_records"."state" = 'done' AND "triage_records"."closed_reason" IS NULL AND NOT "triage_records"."item_removed";--> statement-breakpoint
UPDATE "tenants" SET "triage_start" = "created_at";--> statement-breakpoint
UPDATE "triage_records" SET "opened_on" = ("created_at" AT TIME ZONE 'UTC')::date;
