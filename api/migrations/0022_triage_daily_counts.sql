CREATE TABLE "triage_daily_counts" (
	"day" date NOT NULL,
	"tenant_key" integer NOT NULL,
	"open" integer NOT NULL,
	"overdue" integer NOT NULL,
	"done" integer NOT NULL,
	"not_relevant" integer NOT NULL,
	CONSTRAINT "triage_daily_counts_day_tenant_key_pk" PRIMARY KEY("day","tenant_key")
);
