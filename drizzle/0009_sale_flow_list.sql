-- The sale flow list (issue 12). Clients are found by name whether live or deleted (deleted clients stay
-- on their reservations): the trigram index covers every client, and live-only searches filter it.
DROP INDEX "clients_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- Ordered by client or by project, the list walks these instead of sorting every reservation.
CREATE INDEX "clients_name_idx" ON "clients" USING btree ("first_name","last_name","id");--> statement-breakpoint
CREATE INDEX "projects_name_stage_idx" ON "projects" USING btree ("name","stage","id");
