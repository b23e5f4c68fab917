ALTER TABLE "tenants" ADD COLUMN "licensed_products" text[];--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "licences_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "licences_error" text;