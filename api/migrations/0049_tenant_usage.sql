CREATE TABLE "tenant_usage" (
	"tenant_id" integer NOT NULL,
	"report_date" date NOT NULL,
	"workload" text NOT NULL,
	"active_users" integer NOT NULL,
	"licensed_users" integer,
	"period_days" integer NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tenant_usage_tenant_id_report_date_workload_pk" PRIMARY KEY("tenant_id","report_date","workload")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "usage_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "usage_tried_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "usage_error" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "usage_permission_missing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_usage" ADD CONSTRAINT "tenant_usage_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;