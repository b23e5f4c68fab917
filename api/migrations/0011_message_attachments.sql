CREATE TABLE "message_attachments" (
	"item_id" integer NOT NULL,
	"attachment_id" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text,
	"size" integer,
	"last_modified" text,
	"content" "bytea",
	"fetched_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "message_attachments_item_id_attachment_id_pk" PRIMARY KEY("item_id","attachment_id")
);
--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_item_id_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."items"("id") ON DELETE cascade ON UPDATE no action;