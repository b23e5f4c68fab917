ALTER TABLE "tenants" ADD COLUMN "health_overview" jsonb;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "health_overview_at" timestamp with time zone;