ALTER TYPE "public"."sync_status" ADD VALUE 'held';--> statement-breakpoint
ALTER TYPE "public"."sync_status" ADD VALUE 'unchanged';--> statement-breakpoint
ALTER TYPE "public"."sync_status" ADD VALUE 'interrupted';--> statement-breakpoint
CREATE TABLE "held_snapshots" (
	"sync_id" integer PRIMARY KEY NOT NULL,
	"source" "sync_source" NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"format" text NOT NULL,
	"payload" text,
	"snapshot_hash" text NOT NULL,
	"item_count" integer NOT NULL,
	"active_before" integer NOT NULL,
	"would_remove" integer NOT NULL,
	"feed_url" text,
	"etag" text,
	"last_modified" text,
	"body_hash" text,
	"decided_by" integer,
	"decided_at" timestamp with time zone,
	"applied_sync_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "priority" smallint DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "feed_format" text;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "feed_url" text;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "etag" text;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "last_modified" text;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "body_hash" text;--> statement-breakpoint
ALTER TABLE "held_snapshots" ADD CONSTRAINT "held_snapshots_sync_id_sync_history_id_fk" FOREIGN KEY ("sync_id") REFERENCES "public"."sync_history"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_snapshots" ADD CONSTRAINT "held_snapshots_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "held_snapshots" ADD CONSTRAINT "held_snapshots_applied_sync_id_sync_history_id_fk" FOREIGN KEY ("applied_sync_id") REFERENCES "public"."sync_history"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "held_snapshots_pending_idx" ON "held_snapshots" USING btree ("source") WHERE "held_snapshots"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "outbox_claim_idx" ON "mail_outbox" USING btree ("priority","id") WHERE "mail_outbox"."status" in ('pending', 'sending');--> statement-breakpoint
-- Written by hand: mail still waiting at upgrade time gets the priority its kind has from now on (mail/priority.ts),
-- so a sign-in code queued behind a digest run during the upgrade does not wait either.
UPDATE "mail_outbox" SET "priority" = CASE WHEN "kind" IN ('sign-in-code', 'sign-in-no-account', 'digest-confirm', 'test-notification') THEN 0 WHEN "kind" = 'weekly-digest' THEN 9 ELSE 5 END WHERE "status" IN ('pending', 'sending');
