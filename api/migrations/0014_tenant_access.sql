ALTER TABLE "items" ADD COLUMN "tenant_ids" integer[] DEFAULT '{}'::integer[] NOT NULL;--> statement-breakpoint
CREATE INDEX "items_tenant_ids_idx" ON "items" USING gin ("tenant_ids");--> statement-breakpoint
CREATE FUNCTION "radar_item_tenant_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.item_id ELSE NEW.item_id END;
BEGIN
  UPDATE "items" SET "tenant_ids" = coalesce((SELECT array_agg(t.tenant_id ORDER BY t.tenant_id) FROM "item_tenants" t WHERE t.item_id = target), '{}')
    WHERE "id" = target;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "item_tenants_tenant_ids" AFTER INSERT OR DELETE ON "item_tenants"
  FOR EACH ROW EXECUTE FUNCTION "radar_item_tenant_ids"();--> statement-breakpoint
UPDATE "items" i SET "tenant_ids" = t.ids
  FROM (SELECT item_id, array_agg(tenant_id ORDER BY tenant_id) AS ids FROM "item_tenants" GROUP BY item_id) t
  WHERE t.item_id = i.id;--> statement-breakpoint
-- The UPDATE left the data-version trigger's deferred events pending, and ALTER TABLE and CREATE INDEX refuse a table
-- with pending events (an upgrade runs every newer migration in one transaction): fire them now. Added after release,
-- for installations that upgrade across this version with data.
SET CONSTRAINTS ALL IMMEDIATE;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "tenants_data_version" AFTER INSERT OR UPDATE OR DELETE ON "tenants"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "tenant_access_data_version" AFTER INSERT OR UPDATE OR DELETE ON "tenant_access"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();
