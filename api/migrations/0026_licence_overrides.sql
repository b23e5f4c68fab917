ALTER TABLE "product_mappings" ADD COLUMN "licence_plans" text[];--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "licensed_plans" text[];