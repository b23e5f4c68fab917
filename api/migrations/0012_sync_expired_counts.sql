ALTER TABLE "sync_history" ADD COLUMN "expired_in_feed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "changed_expired" integer DEFAULT 0 NOT NULL;