CREATE TABLE "uf_values" (
	"date" date PRIMARY KEY NOT NULL,
	"value" numeric(14, 2) NOT NULL,
	"source" text NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "uf_values_positive" CHECK ("uf_values"."value" > 0),
	CONSTRAINT "uf_values_date_range" CHECK ("uf_values"."date" between '1977-01-01' and '2100-12-31'),
	CONSTRAINT "uf_values_source" CHECK ("uf_values"."source" in ('file', 'user', 'automatic'))
);
--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD COLUMN "payment_1_clp" numeric(14, 0);--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD COLUMN "payment_1_uf_value" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD COLUMN "payment_2_clp" numeric(14, 0);--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD COLUMN "payment_2_uf_value" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "uf_values" ADD CONSTRAINT "uf_values_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uf_values" ADD CONSTRAINT "uf_values_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Every UF value's change is audited (decision 0034): added, corrected, imported, fetched.
SELECT audit_install('uf_values', '{date}', 'uf_values', 'null::uuid');
--> statement-breakpoint
-- broker_commissions gained the frozen pesos of each payment: re-installed so the log writes them.
SELECT audit_install('broker_commissions', '{id}', 'reservations', 'r.reservation_id');
