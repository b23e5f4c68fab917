ALTER TABLE "triage_daily_counts" ADD COLUMN "weight" integer;--> statement-breakpoint
ALTER TABLE "triage_daily_counts" ADD COLUMN "weight_overdue" integer;--> statement-breakpoint
ALTER TABLE "triage_daily_counts" ADD COLUMN "weight_unowned" integer;--> statement-breakpoint
ALTER TABLE "triage_daily_counts" ADD COLUMN "weight_imminent" integer;--> statement-breakpoint
ALTER TABLE "triage_daily_counts" ADD COLUMN "weight_untriaged" integer;