ALTER TYPE "public"."item_source" ADD VALUE 'health';--> statement-breakpoint
ALTER TYPE "public"."sync_source" ADD VALUE 'service_health';--> statement-breakpoint
CREATE TABLE "health_reports" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL,
	"content_type" text,
	"size" integer NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "health_posts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "is_resolved" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "feature" text;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "feature_group" text;--> statement-breakpoint
ALTER TABLE "health_reports" ADD CONSTRAINT "health_reports_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;