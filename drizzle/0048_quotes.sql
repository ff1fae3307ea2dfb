CREATE TABLE "quote_settings" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"validity_days" integer DEFAULT 10 NOT NULL,
	"max_installments" integer DEFAULT 12 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "quote_settings_validity_check" CHECK ("quote_settings"."validity_days" between 1 and 90),
	CONSTRAINT "quote_settings_installments_check" CHECK ("quote_settings"."max_installments" between 1 and 120)
);
--> statement-breakpoint
CREATE TABLE "quote_units" (
	"quote_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"price_list_id" uuid,
	CONSTRAINT "quote_units_quote_id_unit_id_pk" PRIMARY KEY("quote_id","unit_id"),
	CONSTRAINT "quote_units_kind_check" CHECK (kind in ('apartment', 'parking', 'storage'))
);
--> statement-breakpoint
CREATE TABLE "quotes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" integer GENERATED ALWAYS AS IDENTITY (sequence name "quotes_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"project_id" uuid NOT NULL,
	"seller_id" uuid,
	"broker_id" uuid,
	"prospect_name" text NOT NULL,
	"prospect_email" text NOT NULL,
	"prospect_phone" text,
	"prospect_rut" text,
	"search_text" text GENERATED ALWAYS AS (lower(translate(prospect_name || ' ' || prospect_email || ' ' || coalesce(prospect_rut, '') || ' ' || coalesce(replace(prospect_rut, '-', ''), ''), 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))) STORED NOT NULL,
	"quote_date" date NOT NULL,
	"valid_until" date NOT NULL,
	"price_list_id" uuid,
	"uf_date" date NOT NULL,
	"uf_value" numeric(14, 2) NOT NULL,
	"apartment_price" numeric(14, 2) NOT NULL,
	"parking_price" numeric(14, 2) NOT NULL,
	"storage_price" numeric(14, 2) NOT NULL,
	"column_discount" numeric(9, 6) DEFAULT '0' NOT NULL,
	"additional_discount" numeric(9, 6) DEFAULT '0' NOT NULL,
	"other_discount" numeric(9, 6) DEFAULT '0' NOT NULL,
	"list_price" numeric(14, 2) NOT NULL,
	"final_price" numeric(14, 2) NOT NULL,
	"reservation_amount" numeric(14, 2) NOT NULL,
	"down_payment_fraction" numeric(9, 6) NOT NULL,
	"down_payment" numeric(14, 2) NOT NULL,
	"installments" integer NOT NULL,
	"subsidy_amount" numeric(14, 2) DEFAULT '0' NOT NULL,
	"credit_amount" numeric(14, 2) NOT NULL,
	"reservation_id" uuid,
	"reserved_at" timestamp with time zone,
	"copied_from_id" uuid,
	"sent_count" integer DEFAULT 0 NOT NULL,
	"last_sent_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "quotes_number_unique" UNIQUE("number"),
	CONSTRAINT "quotes_prospect_name_not_blank" CHECK (btrim("quotes"."prospect_name") <> ''),
	CONSTRAINT "quotes_valid_until_check" CHECK ("quotes"."valid_until" >= "quotes"."quote_date"),
	CONSTRAINT "quotes_installments_check" CHECK ("quotes"."installments" between 1 and 120),
	CONSTRAINT "quotes_discounts_fraction" CHECK ("quotes"."column_discount" between 0 and 1 and "quotes"."additional_discount" between 0 and 1
        and "quotes"."other_discount" between 0 and 1 and "quotes"."down_payment_fraction" between 0 and 1),
	CONSTRAINT "quotes_amounts_non_negative" CHECK ("quotes"."apartment_price" >= 0 and "quotes"."parking_price" >= 0 and "quotes"."storage_price" >= 0
        and "quotes"."reservation_amount" >= 0 and "quotes"."subsidy_amount" >= 0 and "quotes"."credit_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "quote_settings" ADD CONSTRAINT "quote_settings_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_settings" ADD CONSTRAINT "quote_settings_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_units" ADD CONSTRAINT "quote_units_quote_id_quotes_id_fk" FOREIGN KEY ("quote_id") REFERENCES "public"."quotes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_units" ADD CONSTRAINT "quote_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quote_units" ADD CONSTRAINT "quote_units_price_list_id_price_lists_id_fk" FOREIGN KEY ("price_list_id") REFERENCES "public"."price_lists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_seller_id_profiles_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_price_list_id_price_lists_id_fk" FOREIGN KEY ("price_list_id") REFERENCES "public"."price_lists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quote_units_unit_idx" ON "quote_units" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "quotes_newest_idx" ON "quotes" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quotes_project_idx" ON "quotes" USING btree ("project_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quotes_seller_idx" ON "quotes" USING btree ("seller_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "quotes_broker_idx" ON "quotes" USING btree ("broker_id") WHERE "quotes"."broker_id" is not null;--> statement-breakpoint
CREATE INDEX "quotes_reservation_idx" ON "quotes" USING btree ("reservation_id") WHERE "quotes"."reservation_id" is not null;--> statement-breakpoint
CREATE INDEX "quotes_valid_until_idx" ON "quotes" USING btree ("valid_until");--> statement-breakpoint
CREATE INDEX "quotes_search_trgm_idx" ON "quotes" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
-- Audited (decision 0071): a quote's life (made, sent, reserved) in its own Historial; a project's quote
-- settings in the project's. Its units are a copy written with it and never changed (not audited).
SELECT audit_install('quotes', '{id}', 'quotes', 'r.id');--> statement-breakpoint
SELECT audit_install('quote_settings', '{project_id}', 'projects', 'r.project_id');
