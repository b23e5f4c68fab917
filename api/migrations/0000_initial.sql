CREATE TYPE "public"."history_change_type" AS ENUM('new', 'changed', 'removed');--> statement-breakpoint
CREATE TYPE "public"."item_source" AS ENUM('roadmap', 'messages');--> statement-breakpoint
CREATE TYPE "public"."outbox_status" AS ENUM('pending', 'sending', 'sent', 'failed');--> statement-breakpoint
CREATE TYPE "public"."sync_source" AS ENUM('roadmap', 'message_center');--> statement-breakpoint
CREATE TYPE "public"."sync_status" AS ENUM('running', 'success', 'failed', 'not_configured');--> statement-breakpoint
CREATE TABLE "app_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"message" text NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "digest_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"subscriber_id" integer NOT NULL,
	"week_start" date NOT NULL,
	"outbox_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "digest_subscribers" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"user_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"origin" text NOT NULL,
	"subscribed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "digest_subscribers_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "item_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"change_type" "history_change_type" NOT NULL,
	"change_date" timestamp with time zone NOT NULL,
	"changed_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"previous_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"new_values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sync_id" integer
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" "item_source" NOT NULL,
	"external_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"summary" text,
	"body_html" text,
	"status" text,
	"products" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"cloud_instances" text[] DEFAULT '{}'::text[] NOT NULL,
	"release_phases" text[] DEFAULT '{}'::text[] NOT NULL,
	"platforms" text[] DEFAULT '{}'::text[] NOT NULL,
	"release_date" text,
	"preview_date" text,
	"more_info_link" text,
	"created_date" timestamp with time zone,
	"modified_date" timestamp with time zone,
	"category" text,
	"severity" text,
	"is_major_change" boolean DEFAULT false NOT NULL,
	"user_impact" boolean DEFAULT false NOT NULL,
	"admin_impact" boolean DEFAULT false NOT NULL,
	"action_required_by" timestamp with time zone,
	"end_date" timestamp with time zone,
	"roadmap_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"external_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"feature_status" jsonb,
	"has_attachments" boolean DEFAULT false NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"content_hash" text NOT NULL,
	"raw" jsonb,
	"is_removed" boolean DEFAULT false NOT NULL,
	"removed_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"is_featured" boolean DEFAULT false NOT NULL,
	"featured_at" timestamp with time zone,
	"third_party_links" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"moderator_notes" text,
	"moderated_by" text,
	"moderated_at" timestamp with time zone,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce(external_id, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce(summary, '') || ' ' || regexp_replace(coalesce(description, '') || ' ' || coalesce(body_html, ''), '<[^>]*>', ' ', 'g')), 'B')) STORED
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"status" "outbox_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"provider_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "message_roadmap_links" (
	"message_item_id" integer NOT NULL,
	"roadmap_external_id" text NOT NULL,
	"origin" text NOT NULL,
	CONSTRAINT "message_roadmap_links_message_item_id_roadmap_external_id_pk" PRIMARY KEY("message_item_id","roadmap_external_id")
);
--> statement-breakpoint
CREATE TABLE "moderator_activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"user_email" text NOT NULL,
	"action_type" text NOT NULL,
	"item_type" text NOT NULL,
	"item_id" text NOT NULL,
	"item_title" text DEFAULT '' NOT NULL,
	"details" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subscription_type" text DEFAULT 'item' NOT NULL,
	"item_type" text NOT NULL,
	"item_external_id" text NOT NULL,
	"item_title" text,
	"change_types" text[] DEFAULT '{changed,status_change}'::text[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"source_product" text NOT NULL,
	"data_source" "sync_source" NOT NULL,
	"display_name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"permissions" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_built_in" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"impersonated_role" text,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "sign_in_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"request_ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"consumed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sync_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"source" "sync_source" NOT NULL,
	"trigger" text NOT NULL,
	"triggered_by" integer,
	"status" "sync_status" DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"items_processed" integer DEFAULT 0 NOT NULL,
	"total_items" integer DEFAULT 0 NOT NULL,
	"new_items" integer DEFAULT 0 NOT NULL,
	"changed_items" integer DEFAULT 0 NOT NULL,
	"removed_items" integer DEFAULT 0 NOT NULL,
	"restored_items" integer DEFAULT 0 NOT NULL,
	"error_message" text
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"profile_image_url" text,
	"email_verified_at" timestamp with time zone,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "digest_deliveries" ADD CONSTRAINT "digest_deliveries_subscriber_id_digest_subscribers_id_fk" FOREIGN KEY ("subscriber_id") REFERENCES "public"."digest_subscribers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "digest_subscribers" ADD CONSTRAINT "digest_subscribers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_history" ADD CONSTRAINT "item_history_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_history" ADD CONSTRAINT "item_history_sync_id_sync_history_id_fk" FOREIGN KEY ("sync_id") REFERENCES "public"."sync_history"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_roadmap_links" ADD CONSTRAINT "message_roadmap_links_message_item_id_items_id_fk" FOREIGN KEY ("message_item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderator_activities" ADD CONSTRAINT "moderator_activities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_subscriptions" ADD CONSTRAINT "notification_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_history" ADD CONSTRAINT "sync_history_triggered_by_users_id_fk" FOREIGN KEY ("triggered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_submitted_idx" ON "contact_submissions" USING btree ("submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "digest_deliveries_week_uq" ON "digest_deliveries" USING btree ("subscriber_id","week_start");--> statement-breakpoint
CREATE INDEX "item_history_item_idx" ON "item_history" USING btree ("item_id","change_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "item_history_date_idx" ON "item_history" USING btree ("change_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "item_history_type_date_idx" ON "item_history" USING btree ("change_type","change_date" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "items_source_external_uq" ON "items" USING btree ("source","external_id");--> statement-breakpoint
CREATE INDEX "items_external_lower_idx" ON "items" USING btree (lower("external_id"));--> statement-breakpoint
CREATE INDEX "items_created_idx" ON "items" USING btree ("created_date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "items"."is_removed";--> statement-breakpoint
CREATE INDEX "items_modified_idx" ON "items" USING btree ("modified_date" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "items"."is_removed";--> statement-breakpoint
CREATE INDEX "items_source_created_idx" ON "items" USING btree ("source","created_date" DESC NULLS LAST) WHERE NOT "items"."is_removed";--> statement-breakpoint
CREATE INDEX "items_status_idx" ON "items" USING btree (lower("status")) WHERE NOT "items"."is_removed";--> statement-breakpoint
CREATE INDEX "items_products_gin" ON "items" USING gin ("products");--> statement-breakpoint
CREATE INDEX "items_tags_gin" ON "items" USING gin ("tags");--> statement-breakpoint
CREATE INDEX "items_cloud_gin" ON "items" USING gin ("cloud_instances");--> statement-breakpoint
CREATE INDEX "items_featured_idx" ON "items" USING btree ("featured_at" DESC NULLS LAST) WHERE "items"."is_featured";--> statement-breakpoint
CREATE INDEX "items_last_changed_idx" ON "items" USING btree ("last_changed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_search_gin" ON "items" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "mail_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "links_roadmap_idx" ON "message_roadmap_links" USING btree ("roadmap_external_id");--> statement-breakpoint
CREATE INDEX "moderator_activities_created_idx" ON "moderator_activities" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "moderator_activities_type_idx" ON "moderator_activities" USING btree ("action_type");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_user_item_uq" ON "notification_subscriptions" USING btree ("user_id","item_type","item_external_id");--> statement-breakpoint
CREATE INDEX "subscriptions_item_idx" ON "notification_subscriptions" USING btree ("item_type","item_external_id") WHERE "notification_subscriptions"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "product_mappings_uq" ON "product_mappings" USING btree ("source_product","data_source");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_codes_email_idx" ON "sign_in_codes" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "sign_in_codes_ip_idx" ON "sign_in_codes" USING btree ("request_ip","created_at");--> statement-breakpoint
CREATE INDEX "sync_history_started_idx" ON "sync_history" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sync_history_source_idx" ON "sync_history" USING btree ("source","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_user_role_uq" ON "user_roles" USING btree ("user_id","role_id");--> statement-breakpoint
CREATE INDEX "user_roles_role_idx" ON "user_roles" USING btree ("role_id");