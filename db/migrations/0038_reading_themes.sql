ALTER TABLE "reading_settings" ADD COLUMN "theme" text DEFAULT 'auto' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "text_width" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "paragraph_spacing" text DEFAULT 'medium' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD COLUMN "text_align" text DEFAULT 'start' NOT NULL;--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_font_family" CHECK ("reading_settings"."font_family" in ('serif', 'sans-serif', 'gothic', 'dyslexic'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_theme" CHECK ("reading_settings"."theme" in ('auto', 'sepia', 'contrast'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_text_width" CHECK ("reading_settings"."text_width" in ('narrow', 'medium', 'wide'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_paragraph_spacing" CHECK ("reading_settings"."paragraph_spacing" in ('small', 'medium', 'large'));--> statement-breakpoint
ALTER TABLE "reading_settings" ADD CONSTRAINT "reading_settings_text_align" CHECK ("reading_settings"."text_align" in ('start', 'justify'));