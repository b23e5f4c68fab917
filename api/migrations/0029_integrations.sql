CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"settings" jsonb NOT NULL,
	"secret_sealed" text,
	"paused" boolean DEFAULT false NOT NULL,
	"paused_reason" text,
	"paused_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_pull_at" timestamp with time zone,
	"last_pull_error" text,
	"created_by_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracker_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"link_id" integer,
	"action" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"latency_ms" integer,
	"response_excerpt" text DEFAULT '' NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "tracker_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"record_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"external_id" text,
	"external_key" text,
	"external_url" text,
	"remote_state" text,
	"remote_done" boolean,
	"remote_assignee" text,
	"remote_due" date,
	"remote_updated_at" timestamp with time zone,
	"last_pulled_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tracker_links_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "tracker_links_integration_record_uq" UNIQUE("integration_id","record_id")
);
--> statement-breakpoint
CREATE TABLE "tracker_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"link_id" integer NOT NULL,
	"action" text NOT NULL,
	"text" text,
	"dedupe_key" text,
	"status" "outbox_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "tracker_outbox_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_attempts" ADD CONSTRAINT "tracker_attempts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_attempts" ADD CONSTRAINT "tracker_attempts_link_id_tracker_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracker_links"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_links" ADD CONSTRAINT "tracker_links_record_id_triage_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."triage_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_outbox" ADD CONSTRAINT "tracker_outbox_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracker_outbox" ADD CONSTRAINT "tracker_outbox_link_id_tracker_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."tracker_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracker_attempts_integration_idx" ON "tracker_attempts" USING btree ("integration_id","attempted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tracker_links_record_idx" ON "tracker_links" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "tracker_links_pull_idx" ON "tracker_links" USING btree ("integration_id","last_pulled_at");--> statement-breakpoint
CREATE INDEX "tracker_outbox_due_idx" ON "tracker_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "tracker_outbox_link_idx" ON "tracker_outbox" USING btree ("link_id");