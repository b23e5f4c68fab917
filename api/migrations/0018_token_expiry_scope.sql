ALTER TABLE "api_tokens" ADD COLUMN "last_used_network" text;--> statement-breakpoint
-- Tokens made before expiry existed get 90 days from the upgrade (their owners are mailed a week before).
ALTER TABLE "api_tokens" ADD COLUMN "expires_at" timestamp with time zone NOT NULL DEFAULT (now() + interval '90 days');--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "expires_at" DROP DEFAULT;--> statement-breakpoint
-- Tokens made before scopes existed could manage their owner's subscriptions: they keep that.
ALTER TABLE "api_tokens" ADD COLUMN "scope" text DEFAULT 'read_subscriptions' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "scope" SET DEFAULT 'read';--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "expiry_notice_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "api_tokens_expires_idx" ON "api_tokens" USING btree ("expires_at");
