CREATE TYPE "public"."alert_channel_kind" AS ENUM('email', 'teams', 'slack', 'webhook');--> statement-breakpoint
CREATE TYPE "public"."alert_schedule" AS ENUM('instant', 'daily', 'weekly');--> statement-breakpoint
CREATE TYPE "public"."alert_scope" AS ENUM('personal', 'organisation');--> statement-breakpoint
CREATE TABLE "alert_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" "alert_scope" DEFAULT 'personal' NOT NULL,
	"owner_user_id" integer NOT NULL,
	"kind" "alert_channel_kind" NOT NULL,
	"name" text NOT NULL,
	"url_sealed" text,
	"url_hint" text,
	"secret_sealed" text,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_reason" text,
	"paused_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_delivery_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "alert_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"public_id" text NOT NULL,
	"channel_id" integer NOT NULL,
	"saved_search_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"trigger" text NOT NULL,
	"dedupe_key" text,
	"body" text,
	"mail_outbox_id" integer,
	"status" "outbox_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "alert_deliveries_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "alert_delivery_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"latency_ms" integer,
	"response_excerpt" text DEFAULT '' NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "saved_search_channels" (
	"saved_search_id" integer NOT NULL,
	"channel_id" integer NOT NULL,
	CONSTRAINT "saved_search_channels_saved_search_id_channel_id_pk" PRIMARY KEY("saved_search_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" serial PRIMARY KEY NOT NULL,
	"scope" "alert_scope" DEFAULT 'personal' NOT NULL,
	"owner_user_id" integer NOT NULL,
	"name" text NOT NULL,
	"query" jsonb NOT NULL,
	"alert_on" text[] NOT NULL,
	"schedule" "alert_schedule" DEFAULT 'instant' NOT NULL,
	"hour" smallint DEFAULT 8 NOT NULL,
	"weekday" smallint DEFAULT 1 NOT NULL,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"digest_anchor_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_digest_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_channels" ADD CONSTRAINT "alert_channels_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_channel_id_alert_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."alert_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_delivery_attempts" ADD CONSTRAINT "alert_delivery_attempts_delivery_id_alert_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."alert_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_delivery_attempts" ADD CONSTRAINT "alert_delivery_attempts_channel_id_alert_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."alert_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_channels" ADD CONSTRAINT "saved_search_channels_saved_search_id_saved_searches_id_fk" FOREIGN KEY ("saved_search_id") REFERENCES "public"."saved_searches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_search_channels" ADD CONSTRAINT "saved_search_channels_channel_id_alert_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."alert_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_channels_owner_idx" ON "alert_channels" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "alert_channels_scope_idx" ON "alert_channels" USING btree ("scope");--> statement-breakpoint
CREATE INDEX "alert_deliveries_due_idx" ON "alert_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "alert_deliveries_channel_idx" ON "alert_deliveries" USING btree ("channel_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "alert_delivery_attempts_channel_idx" ON "alert_delivery_attempts" USING btree ("channel_id","attempted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_search_channels_channel_idx" ON "saved_search_channels" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "saved_searches_owner_idx" ON "saved_searches" USING btree ("owner_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "saved_searches_active_idx" ON "saved_searches" USING btree ("schedule") WHERE NOT "saved_searches"."paused";