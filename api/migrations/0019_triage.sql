CREATE TABLE "triage_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"record_id" integer NOT NULL,
	"author_id" integer,
	"body" text NOT NULL,
	"mentions" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "triage_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"tenant_id" integer,
	"state" text DEFAULT 'new' NOT NULL,
	"owner_id" integer,
	"due_date" date,
	"due_source" text DEFAULT 'none' NOT NULL,
	"priority" text DEFAULT 'low' NOT NULL,
	"priority_source" text DEFAULT 'no_signal' NOT NULL,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone,
	"updated_by_id" integer,
	CONSTRAINT "triage_records_item_tenant_uq" UNIQUE NULLS NOT DISTINCT("item_id","tenant_id")
);
--> statement-breakpoint
ALTER TABLE "triage_comments" ADD CONSTRAINT "triage_comments_record_id_triage_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."triage_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_comments" ADD CONSTRAINT "triage_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_updated_by_id_users_id_fk" FOREIGN KEY ("updated_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "triage_comments_record_idx" ON "triage_comments" USING btree ("record_id","id");--> statement-breakpoint
CREATE INDEX "triage_records_owner_idx" ON "triage_records" USING btree ("owner_id","state","due_date") WHERE "triage_records"."owner_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "triage_records_state_due_idx" ON "triage_records" USING btree ("state","due_date","id");--> statement-breakpoint
CREATE INDEX "triage_records_tenant_idx" ON "triage_records" USING btree ("tenant_id");--> statement-breakpoint
-- The list shows each item's triage and filters by it: a change of a record moves the data version like a change of the item.
CREATE CONSTRAINT TRIGGER "triage_records_data_version" AFTER INSERT OR UPDATE OR DELETE ON "triage_records"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();
