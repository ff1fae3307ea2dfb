-- /clientes and /brokers by RUT (decision 0019): in number order, by the RUT padded to its longest length
-- ('09876543-2' before '12345678-5'; as text, '9876543-2' would come after).
CREATE INDEX "brokers_rut_order_idx" ON "brokers" USING btree (lpad("rut", 10, '0'));--> statement-breakpoint
CREATE INDEX "clients_rut_order_idx" ON "clients" USING btree (lpad("rut", 10, '0')) WHERE "clients"."deleted_at" is null;