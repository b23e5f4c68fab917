CREATE SEQUENCE "public"."remotes_revision_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "remotes" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"previous_url" text,
	"source" text DEFAULT 'config' NOT NULL,
	"revision" bigint DEFAULT nextval('remotes_revision_seq') NOT NULL,
	"last_loaded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "remotes_name_known" CHECK ("remotes"."name" IN ('dashboard', 'admin', 'digest')),
	CONSTRAINT "remotes_source_known" CHECK ("remotes"."source" IN ('config', 'admin'))
);
