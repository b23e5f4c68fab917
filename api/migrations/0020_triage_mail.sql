CREATE TABLE "triage_mail_opt_outs" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "triage_mail_opt_outs_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "triage_notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"record_id" integer NOT NULL,
	"actor_id" integer,
	"comment_id" integer,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"skipped" boolean DEFAULT false NOT NULL,
	CONSTRAINT "triage_notifications_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
ALTER TABLE "triage_mail_opt_outs" ADD CONSTRAINT "triage_mail_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_notifications" ADD CONSTRAINT "triage_notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_notifications" ADD CONSTRAINT "triage_notifications_record_id_triage_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."triage_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_notifications" ADD CONSTRAINT "triage_notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_notifications" ADD CONSTRAINT "triage_notifications_comment_id_triage_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."triage_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "triage_notifications_pending_idx" ON "triage_notifications" USING btree ("user_id","id") WHERE "triage_notifications"."sent_at" IS NULL;--> statement-breakpoint
CREATE INDEX "triage_notifications_user_sent_idx" ON "triage_notifications" USING btree ("user_id","sent_at");