CREATE TABLE "dashboard_visits" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"previous_seen_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "ga_moves" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "ga_shift_months" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "preview_moves" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "preview_shift_months" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "release_moves" integer GENERATED ALWAYS AS (ga_moves + preview_moves) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "release_moved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "dashboard_visits" ADD CONSTRAINT "dashboard_visits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "items_created_all_idx" ON "items" USING btree ("created_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_modified_all_idx" ON "items" USING btree ("modified_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_release_moves_idx" ON "items" USING btree ("release_moves" DESC NULLS LAST,"created_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_release_moved_created_idx" ON "items" USING btree ("created_date" DESC NULLS LAST,"id" DESC NULLS LAST,"release_moved_at","is_removed","source","modified_date") WHERE "items"."release_moved_at" IS NOT NULL;--> statement-breakpoint
-- Written by hand (not generated): backfill the date-slip counters from the change history already recorded; from
-- now on the sync keeps them (api/src/sync/release-moves.ts). A move follows contracts/src/release-dates.ts: both
-- dates given, different, and not the same month spelled differently; its shift in months counts when both dates
-- name a month ("March CY2026" -> 2026 * 12 + 2). Restores that changed a date count like any other change.
WITH moves AS (
  SELECT h.item_id, h.change_date, f.field,
         btrim(h.previous_values ->> f.field) AS before, btrim(h.new_values ->> f.field) AS after
  FROM item_history h
  CROSS JOIN LATERAL unnest(ARRAY['releaseDate', 'previewDate']) AS f(field)
  WHERE h.change_type = 'changed' AND f.field = ANY (h.changed_fields)
), months AS (
  SELECT m.*,
    substring(lower(m.before) from '^([a-z]+)\s+(?:cy\s*)?\d{4}$') AS before_month,
    substring(lower(m.before) from '^[a-z]+\s+(?:cy\s*)?(\d{4})$')::int AS before_year,
    substring(lower(m.after) from '^([a-z]+)\s+(?:cy\s*)?\d{4}$') AS after_month,
    substring(lower(m.after) from '^[a-z]+\s+(?:cy\s*)?(\d{4})$')::int AS after_year
  FROM moves m
), parsed AS (
  SELECT m.item_id, m.change_date, m.field, m.before, m.after,
    m.before_year * 12 + array_position(ARRAY['january','february','march','april','may','june','july','august','september','october','november','december'], m.before_month) - 1 AS a,
    m.after_year * 12 + array_position(ARRAY['january','february','march','april','may','june','july','august','september','october','november','december'], m.after_month) - 1 AS b
  FROM months m
), counted AS (
  SELECT item_id,
    count(*) FILTER (WHERE field = 'releaseDate')::int AS ga_moves,
    coalesce(sum(b - a) FILTER (WHERE field = 'releaseDate'), 0)::int AS ga_shift_months,
    count(*) FILTER (WHERE field = 'previewDate')::int AS preview_moves,
    coalesce(sum(b - a) FILTER (WHERE field = 'previewDate'), 0)::int AS preview_shift_months,
    max(change_date) AS release_moved_at
  FROM parsed
  WHERE before <> '' AND after <> '' AND before <> after AND (a IS NULL OR b IS NULL OR a <> b)
  GROUP BY item_id
)
UPDATE "items" i
SET "ga_moves" = c.ga_moves, "ga_shift_months" = c.ga_shift_months, "preview_moves" = c.preview_moves,
    "preview_shift_months" = c.preview_shift_months, "release_moved_at" = c.release_moved_at
FROM counted c
WHERE i.id = c.item_id;--> statement-breakpoint
-- The UPDATE left the data-version trigger's deferred events pending, and ALTER TABLE and CREATE INDEX refuse a table
-- with pending events (an upgrade runs every newer migration in one transaction): fire them now. Added after release,
-- for installations that upgrade across this version with data.
SET CONSTRAINTS ALL IMMEDIATE;
