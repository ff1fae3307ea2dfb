CREATE TABLE "payment_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"tolerance_per_uf" numeric(14, 2) DEFAULT '1' NOT NULL,
	"paid_date_business_days" integer DEFAULT 5 NOT NULL,
	"bank_file_layout" jsonb,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "payment_settings_single_row" CHECK ("payment_settings"."id"),
	CONSTRAINT "payment_settings_tolerance_check" CHECK ("payment_settings"."tolerance_per_uf" >= 0 and "payment_settings"."tolerance_per_uf" <= 1000),
	CONSTRAINT "payment_settings_days_check" CHECK ("payment_settings"."paid_date_business_days" between 0 and 60)
);
--> statement-breakpoint
ALTER TABLE "mail_messages" DROP CONSTRAINT "mail_messages_kind_check";--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "bank_holder_name" text;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "bank_holder_rut" text;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "bank_changed_by" uuid;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "bank_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "bank_verified_by" uuid;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "bank_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_batch_items" ADD COLUMN "holder_name" text;--> statement-breakpoint
ALTER TABLE "payment_batch_items" ADD COLUMN "holder_rut" text;--> statement-breakpoint
-- The batches made before: the beneficiary their file named (the broker's name and RUT).
UPDATE "payment_batch_items" SET "holder_name" = "broker_name", "holder_rut" = "broker_rut";--> statement-breakpoint
ALTER TABLE "payment_batch_items" ALTER COLUMN "holder_name" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_batch_items" ALTER COLUMN "holder_rut" SET NOT NULL;--> statement-breakpoint
-- Bank data entered before issue 53 had no second pair of eyes: its holder is the broker's legal name
-- and RUT, its author whoever last saved the broker, and it waits to be verified (decision 0052).
UPDATE "brokers" SET "bank_holder_name" = "business_name", "bank_holder_rut" = "rut",
       "bank_changed_by" = "updated_by", "bank_changed_at" = "updated_at"
 WHERE "bank_name" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD CONSTRAINT "payment_settings_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokers" ADD CONSTRAINT "brokers_bank_changed_by_profiles_id_fk" FOREIGN KEY ("bank_changed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokers" ADD CONSTRAINT "brokers_bank_verified_by_profiles_id_fk" FOREIGN KEY ("bank_verified_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokers" ADD CONSTRAINT "brokers_bank_holder_check" CHECK (("brokers"."bank_name" is null) = ("brokers"."bank_holder_name" is null) and ("brokers"."bank_name" is null) = ("brokers"."bank_holder_rut" is null));--> statement-breakpoint
ALTER TABLE "brokers" ADD CONSTRAINT "brokers_bank_verified_check" CHECK (("brokers"."bank_verified_at" is null or "brokers"."bank_name" is not null) and ("brokers"."bank_verified_by" is null or "brokers"."bank_verified_by" <> "brokers"."bank_changed_by"));--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_kind_check" CHECK (kind in ('approval', 'mention', 'notices', 'paymentCompleted', 'bankAccount', 'digest', 'reminder', 'test'));--> statement-breakpoint
INSERT INTO "payment_settings" ("id") VALUES (true);--> statement-breakpoint
SELECT audit_install('payment_settings', '{id}', 'payment_settings', 'null::uuid');
