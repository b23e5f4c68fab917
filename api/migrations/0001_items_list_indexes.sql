DROP INDEX "items_status_idx";--> statement-breakpoint
CREATE INDEX "items_created_cover_idx" ON "items" USING btree ("created_date" DESC NULLS LAST,"id" DESC NULLS LAST,"source","status","category","products","tags","cloud_instances","is_featured","last_changed_at","first_seen_at","modified_date") WHERE NOT "items"."is_removed";--> statement-breakpoint
CREATE INDEX "items_modified_cover_idx" ON "items" USING btree ("modified_date" DESC NULLS LAST,"id" DESC NULLS LAST,"source","status","category","products","tags","cloud_instances","is_featured","last_changed_at","first_seen_at","created_date") WHERE NOT "items"."is_removed";--> statement-breakpoint
CREATE INDEX "items_status_idx" ON "items" USING btree (lower("status"));--> statement-breakpoint
-- Written by hand (drizzle-kit cannot express column storage). Keep each row's search vector in the row
-- (compressed) rather than in the TOAST table: a search tests the vector of every row it walks in date order, and
-- an out-of-line vector cost three to four extra buffer reads per row (a Message Center post's vector is ~1.9 KB).
-- Bodies (body_html, summary, raw) still move out of line first. MAIN still moves a value out as a last resort,
-- so no row can fail to fit. The UPDATE rewrites each row once so existing vectors are stored inline too
-- (a stored generated column is recomputed on update); it changes no value.
ALTER TABLE "items" ALTER COLUMN "search_vector" SET STORAGE MAIN;--> statement-breakpoint
UPDATE "items" SET "title" = "title";
