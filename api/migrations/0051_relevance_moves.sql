CREATE TABLE "relevance_moves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"item_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"from_level" smallint NOT NULL,
	"to_level" smallint NOT NULL,
	"moved_at" timestamp with time zone NOT NULL,
	"alerted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "relevance_moves" ADD CONSTRAINT "relevance_moves_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "relevance_moves" ADD CONSTRAINT "relevance_moves_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "relevance_moves_pending_idx" ON "relevance_moves" USING btree ("id") WHERE "relevance_moves"."alerted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "relevance_moves_moved_at_idx" ON "relevance_moves" USING btree ("moved_at");--> statement-breakpoint
CREATE INDEX "relevance_moves_item_tenant_idx" ON "relevance_moves" USING btree ("item_id","tenant_id","moved_at");--> statement-breakpoint
-- A level that moves between known levels (1 Low … 3 High) is kept for the saved searches on relevance, whatever wrote
-- the row (the refresh's upsert fires it as an update); a first row, and a move from or to Unknown (0), is not.
CREATE FUNCTION "radar_relevance_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "relevance_moves" ("item_id", "tenant_id", "from_level", "to_level", "moved_at")
    VALUES (NEW.item_id, NEW.tenant_id, OLD.level, NEW.level, NEW.computed_at);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "item_relevance_moves" AFTER UPDATE OF "level" ON "item_relevance"
  FOR EACH ROW WHEN (OLD.level <> NEW.level AND OLD.level > 0 AND NEW.level > 0) EXECUTE FUNCTION "radar_relevance_move"();
