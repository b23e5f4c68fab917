ALTER TABLE "items" ADD COLUMN "timing" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "timing_start" date;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "timing_end" date;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "derived_version" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "items_timing_idx" ON "items" USING btree ("timing_start","timing_end","id") WHERE "items"."timing_start" IS NOT NULL;