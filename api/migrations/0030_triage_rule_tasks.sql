ALTER TABLE "triage_rules" ADD COLUMN "create_task_in" integer;--> statement-breakpoint
ALTER TABLE "triage_rules" ADD CONSTRAINT "triage_rules_create_task_in_fk" FOREIGN KEY ("create_task_in") REFERENCES "integrations"("id") ON DELETE SET NULL;
