-- The orders of /brokers (decision 0019), each read off an index that ends in a unique column: by name,
-- by razón social, by KAM then name (also the KAM filter and the list of KAM names).
DROP INDEX "brokers_name_idx";--> statement-breakpoint
CREATE INDEX "brokers_business_name_idx" ON "brokers" USING btree ("business_name","id");--> statement-breakpoint
CREATE INDEX "brokers_kam_idx" ON "brokers" USING btree ("kam_name","name","id");--> statement-breakpoint
CREATE INDEX "brokers_name_idx" ON "brokers" USING btree ("name","id");