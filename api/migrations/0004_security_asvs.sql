CREATE TABLE "pending_signups" (
	"email" text PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"client_key" text,
	"wrong_code" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD COLUMN "confirm_token_hash" text;--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD COLUMN "confirm_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD COLUMN "confirm_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "sealed_content" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "content_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "moderator_activities" ADD COLUMN "recorded_by" text DEFAULT 'client' NOT NULL;--> statement-breakpoint
CREATE INDEX "sign_in_failures_email_idx" ON "sign_in_failures" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "sign_in_failures_client_idx" ON "sign_in_failures" USING btree ("client_key","created_at");--> statement-breakpoint
CREATE INDEX "outbox_sealed_idx" ON "mail_outbox" USING btree ("content_expires_at") WHERE "mail_outbox"."sealed_content" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "moderator_activities_user_item_idx" ON "moderator_activities" USING btree ("user_id","item_type","item_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Written by hand (drizzle-kit cannot express data updates or triggers).
-- Double opt-in of the weekly digest: subscriptions of signed-in accounts are confirmed (the account's address was
-- verified by its sign-in code), and visitor subscriptions that are active today keep receiving the digest (they
-- were made before confirmation existed; every digest carries an unsubscribe link). An inactive visitor row needs a
-- confirmation when it signs up again.
UPDATE "digest_subscribers" SET "confirmed_at" = "subscribed_at" WHERE "confirmed_at" IS NULL AND ("origin" = 'account' OR "is_active");--> statement-breakpoint
-- Sign-in mail written before encryption holds its code in clear: delete that content (a sent code is spent, and a
-- pending one is marked failed: the user asks for a new code). The rows themselves stay.
UPDATE "mail_outbox" SET "subject" = '(content deleted: it held a sign-in code)', "html" = '', "text" = '', "content_expires_at" = "created_at",
  "last_error" = CASE WHEN "status" IN ('pending', 'sending') THEN 'Not sent: its code or link expired before it could be delivered; the content was deleted.' ELSE "last_error" END,
  "status" = CASE WHEN "status" IN ('pending', 'sending') THEN 'failed'::outbox_status ELSE "status" END
  WHERE "kind" = 'sign-in-code' AND "sealed_content" IS NULL;--> statement-breakpoint
-- A role change ends every session of the affected user in the same transaction (assign, unassign, deleting a role
-- they hold, ADMIN_EMAILS granting Admin at sign-in): no session issued before the change carries the new roles.
-- The api gives a caller who changed their own roles a new session in the same answer (sessions.service.ts).
CREATE FUNCTION "end_sessions_on_role_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    DELETE FROM "sessions" WHERE "user_id" = OLD."user_id";
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    DELETE FROM "sessions" WHERE "user_id" = NEW."user_id";
  END IF;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "user_roles_end_sessions" AFTER INSERT OR UPDATE OR DELETE ON "user_roles"
  FOR EACH ROW EXECUTE FUNCTION "end_sessions_on_role_change"();
