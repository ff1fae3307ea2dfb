ALTER TABLE "broker_invoices" DROP CONSTRAINT "broker_invoices_source_check";--> statement-breakpoint
ALTER TABLE "import_runs" ADD COLUMN "header_row" integer;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "bank_changed_by" uuid;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "bank_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "bank_verified_by" uuid;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "bank_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD COLUMN "bank_changed_by" uuid;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD COLUMN "bank_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD COLUMN "bank_verified_by" uuid;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD COLUMN "bank_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_bank_changed_by_profiles_id_fk" FOREIGN KEY ("bank_changed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_bank_verified_by_profiles_id_fk" FOREIGN KEY ("bank_verified_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD CONSTRAINT "real_estate_agencies_bank_changed_by_profiles_id_fk" FOREIGN KEY ("bank_changed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD CONSTRAINT "real_estate_agencies_bank_verified_by_profiles_id_fk" FOREIGN KEY ("bank_verified_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_source_check" CHECK ("broker_invoices"."source" in ('manual', 'xml', 'import'));--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_bank_verified_check" CHECK ("promotions"."bank_verified_by" is null or "promotions"."bank_verified_by" <> "promotions"."bank_changed_by");--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD CONSTRAINT "real_estate_agencies_bank_verified_check" CHECK ("real_estate_agencies"."bank_verified_by" is null or "real_estate_agencies"."bank_verified_by" <> "real_estate_agencies"."bank_changed_by");--> statement-breakpoint
-- Accounts entered before had no second pair of eyes (decision 0063, as 0052 did for brokers): their
-- last editor is their author, and they wait for the office to verify each once.
UPDATE "promotions" SET "bank_changed_by" = "updated_by", "bank_changed_at" = "updated_at";--> statement-breakpoint
UPDATE "real_estate_agencies" SET "bank_changed_by" = "updated_by", "bank_changed_at" = "updated_at";
