ALTER TABLE "items" ADD COLUMN "product_families" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "product_mappings" ADD COLUMN "family" text;--> statement-breakpoint
CREATE INDEX "items_families_gin" ON "items" USING gin ("product_families");