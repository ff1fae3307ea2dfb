CREATE TABLE "buyer_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"reservation_id" uuid NOT NULL,
	"paid_date" date NOT NULL,
	"amount" numeric(16, 4) NOT NULL,
	"amount_clp" numeric(14, 0),
	"uf_value" numeric(14, 2),
	"means" text NOT NULL,
	"document_number" text NOT NULL,
	"reversed_at" timestamp with time zone,
	"reversed_by" uuid,
	"reversal_reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "buyer_payments_amount_check" CHECK ("buyer_payments"."amount" > 0),
	CONSTRAINT "buyer_payments_means_check" CHECK ("buyer_payments"."means" in ('transfer', 'bankDraft', 'cheque', 'card')),
	CONSTRAINT "buyer_payments_clp_check" CHECK (("buyer_payments"."amount_clp" is null) = ("buyer_payments"."uf_value" is null) and ("buyer_payments"."amount_clp" is null or "buyer_payments"."amount_clp" > 0)),
	CONSTRAINT "buyer_payments_reversal_check" CHECK (("buyer_payments"."reversed_at" is null) = ("buyer_payments"."reversal_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "buyer_plan_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"reservation_id" uuid NOT NULL,
	"sort_order" integer NOT NULL,
	"kind" text NOT NULL,
	"number" integer NOT NULL,
	"due_date" date NOT NULL,
	"amount" numeric(16, 4) NOT NULL,
	"paid_amount" numeric(16, 4) DEFAULT '0' NOT NULL,
	"is_open" boolean DEFAULT true NOT NULL,
	CONSTRAINT "buyer_plan_lines_kind_check" CHECK ("buyer_plan_lines"."kind" in ('reservation', 'promise', 'downPayment')),
	CONSTRAINT "buyer_plan_lines_paid_check" CHECK ("buyer_plan_lines"."amount" > 0 and "buyer_plan_lines"."paid_amount" >= 0 and "buyer_plan_lines"."paid_amount" <= "buyer_plan_lines"."amount"
        and "buyer_plan_lines"."is_open" = ("buyer_plan_lines"."paid_amount" < "buyer_plan_lines"."amount"))
);
--> statement-breakpoint
CREATE TABLE "buyer_plans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"reservation_amount" numeric(16, 4) NOT NULL,
	"promise_amount" numeric(16, 4) NOT NULL,
	"down_payment_amount" numeric(16, 4) NOT NULL,
	"installment_count" integer NOT NULL,
	"credit_amount" numeric(16, 4) NOT NULL,
	"subsidy_amount" numeric(16, 4) NOT NULL,
	"promise_date" date NOT NULL,
	"expected_deed_date" date,
	"paid_amount" numeric(16, 4) DEFAULT '0' NOT NULL,
	"pie_waived_reason" text,
	"pie_waived_by" uuid,
	"pie_waived_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "buyer_plans_reservation_id_unique" UNIQUE("reservation_id"),
	CONSTRAINT "buyer_plans_amounts_check" CHECK ("buyer_plans"."reservation_amount" >= 0 and "buyer_plans"."promise_amount" >= 0 and "buyer_plans"."down_payment_amount" >= 0
        and "buyer_plans"."credit_amount" >= 0 and "buyer_plans"."subsidy_amount" >= 0 and "buyer_plans"."paid_amount" >= 0),
	CONSTRAINT "buyer_plans_count_check" CHECK ("buyer_plans"."installment_count" between 1 and 120),
	CONSTRAINT "buyer_plans_waiver_check" CHECK (("buyer_plans"."pie_waived_reason" is null) = ("buyer_plans"."pie_waived_at" is null))
);
--> statement-breakpoint
ALTER TABLE "buyer_payments" ADD CONSTRAINT "buyer_payments_plan_id_buyer_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."buyer_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_payments" ADD CONSTRAINT "buyer_payments_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_payments" ADD CONSTRAINT "buyer_payments_reversed_by_profiles_id_fk" FOREIGN KEY ("reversed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_payments" ADD CONSTRAINT "buyer_payments_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_plan_lines" ADD CONSTRAINT "buyer_plan_lines_plan_id_buyer_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."buyer_plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_plan_lines" ADD CONSTRAINT "buyer_plan_lines_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_plans" ADD CONSTRAINT "buyer_plans_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_plans" ADD CONSTRAINT "buyer_plans_pie_waived_by_profiles_id_fk" FOREIGN KEY ("pie_waived_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_plans" ADD CONSTRAINT "buyer_plans_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "buyer_plans" ADD CONSTRAINT "buyer_plans_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "buyer_payments_plan_idx" ON "buyer_payments" USING btree ("plan_id","paid_date","created_at");--> statement-breakpoint
CREATE INDEX "buyer_payments_reservation_idx" ON "buyer_payments" USING btree ("reservation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_plan_lines_plan_order_key" ON "buyer_plan_lines" USING btree ("plan_id","sort_order");--> statement-breakpoint
CREATE INDEX "buyer_plan_lines_open_due_idx" ON "buyer_plan_lines" USING btree ("due_date","id") WHERE "buyer_plan_lines"."is_open";--> statement-breakpoint
-- Decision 0073 (issue 60): the plan and the payments are audited under their reservation's
-- 'Historial'; the plan's lines are derived from them (the plan's figures, the payments applied oldest first).
SELECT audit_install('buyer_plans', '{id}', 'reservations', 'r.reservation_id');--> statement-breakpoint
SELECT audit_install('buyer_payments', '{id}', 'reservations', 'r.reservation_id');
