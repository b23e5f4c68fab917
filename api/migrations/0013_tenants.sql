CREATE TABLE "item_tenants" (
	"item_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_modified_at" timestamp with time zone,
	"expired" boolean DEFAULT false NOT NULL,
	CONSTRAINT "item_tenants_item_id_tenant_id_pk" PRIMARY KEY("item_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "tenant_access" (
	"user_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	CONSTRAINT "tenant_access_user_id_tenant_id_pk" PRIMARY KEY("user_id","tenant_id")
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"directory_id" text NOT NULL,
	"client_id" text,
	"client_secret_sealed" text,
	"secret_expires_on" date,
	"cloud" text DEFAULT 'worldwide' NOT NULL,
	"visibility" text DEFAULT 'private' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"from_environment" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "held_snapshots" ADD COLUMN "tenant_id" integer;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "tenant_id" integer;--> statement-breakpoint
ALTER TABLE "sync_history" ADD COLUMN "tenant_name" text;--> statement-breakpoint
ALTER TABLE "item_tenants" ADD CONSTRAINT "item_tenants_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_tenants" ADD CONSTRAINT "item_tenants_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_access" ADD CONSTRAINT "tenant_access_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_access" ADD CONSTRAINT "tenant_access_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_tenants_tenant_idx" ON "item_tenants" USING btree ("tenant_id","item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_directory_uq" ON "tenants" USING btree ("directory_id") WHERE "tenants"."removed_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_name_uq" ON "tenants" USING btree ("name") WHERE "tenants"."removed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "sync_history_tenant_idx" ON "sync_history" USING btree ("tenant_id","started_at" DESC NULLS LAST);