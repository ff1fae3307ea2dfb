-- A RUT typed without its hyphen (127203431) finds its owner: the searchable text carries both spellings.
ALTER TABLE "brokers" drop column "search_text";--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(translate(name || ' ' || business_name || ' ' || rut || ' ' || replace(rut, '-', ''), 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" drop column "search_text";--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower(translate(rut || ' ' || replace(rut, '-', '') || ' ' || first_name || ' ' || last_name, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))) STORED NOT NULL;--> statement-breakpoint
-- Dropping the column dropped its trigram indexes: made again over the new text.
CREATE INDEX "brokers_search_trgm_idx" ON "brokers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops) WHERE "clients"."deleted_at" is null;
