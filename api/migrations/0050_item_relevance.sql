CREATE TABLE "item_relevance" (
	"item_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"level" smallint NOT NULL,
	"workload" text,
	"active_users" integer,
	"share" real,
	"reason" text NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "item_relevance_item_id_tenant_id_pk" PRIMARY KEY("item_id","tenant_id"),
	CONSTRAINT "item_relevance_level_known" CHECK ("item_relevance"."level" BETWEEN 0 AND 3)
);
--> statement-breakpoint
ALTER TABLE "item_relevance" ADD CONSTRAINT "item_relevance_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_relevance" ADD CONSTRAINT "item_relevance_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_relevance_tenant_level_item_idx" ON "item_relevance" USING btree ("tenant_id","level","item_id");--> statement-breakpoint
-- The list filters and sorts by relevance and shows it: a change of a row moves the data version like a change of the item.
CREATE CONSTRAINT TRIGGER "item_relevance_data_version" AFTER INSERT OR UPDATE OR DELETE ON "item_relevance"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();
