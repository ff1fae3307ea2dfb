-- Dashboard aggregates as index-only scans (decision 0008): per-project counts, the six months'
-- counts and commission sums, and commission sums per broker, over reservations not rescinded.
CREATE INDEX "broker_commissions_amount_idx" ON "broker_commissions" USING btree ("broker_id","reservation_id","commission_amount");--> statement-breakpoint
CREATE INDEX "reservations_live_project_idx" ON "reservations" USING btree ("project_id") WHERE not "reservations"."is_rescinded";--> statement-breakpoint
CREATE INDEX "reservations_live_date_idx" ON "reservations" USING btree ("reservation_date","id","broker_id") WHERE not "reservations"."is_rescinded";--> statement-breakpoint
CREATE INDEX "reservations_rescinded_idx" ON "reservations" USING btree ("id") WHERE "reservations"."is_rescinded";