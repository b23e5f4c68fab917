CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "data_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_version_single_row" CHECK ("data_version"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
-- Written by hand (drizzle-kit cannot express triggers): the data version, see api/src/db/data-version.ts.
-- Every transaction that writes item data moves the counter forward exactly once, at its COMMIT: the triggers are
-- deferred constraint triggers, so the counter row is locked only for the moment of the commit (a long sync does
-- not hold it, and two writers cannot deadlock on it), and a transaction-local setting makes the first event of a
-- transaction do the update and every later one return at once. Readers see the new version exactly when they see
-- the new data. Any writer is covered (sync, moderation, the CLI, tests, a hand-written UPDATE).
INSERT INTO "data_version" ("id", "version", "changed_at") VALUES (1, 0, now()) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE FUNCTION "radar_bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('radar.data_version_bumped', true) = 'on' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('radar.data_version_bumped', 'on', true);
  INSERT INTO "data_version" ("id", "version", "changed_at") VALUES (1, 1, clock_timestamp())
    ON CONFLICT ("id") DO UPDATE SET "version" = "data_version"."version" + 1, "changed_at" = clock_timestamp();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "items_data_version" AFTER INSERT OR UPDATE OR DELETE ON "items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "item_history_data_version" AFTER INSERT OR UPDATE OR DELETE ON "item_history"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "message_roadmap_links_data_version" AFTER INSERT OR UPDATE OR DELETE ON "message_roadmap_links"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "radar_bump_data_version"();--> statement-breakpoint
CREATE TRIGGER "items_truncate_data_version" AFTER TRUNCATE ON "items" FOR EACH STATEMENT EXECUTE FUNCTION "radar_bump_data_version"();
