ALTER TABLE "sync_history" ADD COLUMN "warning" text;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "drift" jsonb;