-- Inquiries kept for the admin (ADR 59): the sender's name, address and message, and whether answered.
CREATE TABLE "inquiries" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_id" integer,
	"product_name" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"message" text NOT NULL,
	"language" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"answered_at" timestamp with time zone,
	CONSTRAINT "inquiries_status_known" CHECK ("inquiries"."status" in ('new', 'answered')),
	CONSTRAINT "inquiries_answered_at" CHECK (("inquiries"."status" = 'answered') = ("inquiries"."answered_at" is not null)),
	CONSTRAINT "inquiries_name_length" CHECK (char_length("inquiries"."name") between 1 and 100),
	CONSTRAINT "inquiries_email_length" CHECK (char_length("inquiries"."email") <= 254),
	CONSTRAINT "inquiries_message_length" CHECK (char_length("inquiries"."message") between 1 and 2000)
);
--> statement-breakpoint
ALTER TABLE "inquiries" ADD CONSTRAINT "inquiries_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inquiries_status_id" ON "inquiries" USING btree ("status","id");

-- Hand-written: the demo's Custom Commission said "Ordering here reserves a slot at no charge" while its
-- button sends an inquiry. A database loaded from the demo content gets the sentence content/products/6.md
-- now has; a description the author has changed since is left as it is.
--> statement-breakpoint
UPDATE "products" SET "description_md" = replace("description_md",
	'Ordering here reserves a slot at no charge; Mara will then contact you by e-mail to discuss your idea, size and style, and send a personal quote before any payment is taken.',
	'To ask for one, send an inquiry with your idea: nothing is ordered or charged here. Mara replies by e-mail to discuss your idea, size and style, and sends a personal quote before any payment is taken.')
WHERE "id" = 6 AND "description_md" LIKE '%Ordering here reserves a slot at no charge%';
