CREATE TABLE "broker_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_task_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"broker_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"issuer_rut" text NOT NULL,
	"folio" text NOT NULL,
	"issue_date" date NOT NULL,
	"received_date" date NOT NULL,
	"net_amount" numeric(14, 0),
	"vat_amount" numeric(14, 0),
	"total_amount" numeric(14, 0),
	"gross_amount" numeric(14, 0),
	"withholding_amount" numeric(14, 0),
	"payable_amount" numeric(14, 0),
	"source" text NOT NULL,
	"mismatch_accepted_by" uuid,
	"mismatch_accepted_at" timestamp with time zone,
	"mismatch_reason" text,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "broker_invoices_flow_task_id_unique" UNIQUE("flow_task_id"),
	CONSTRAINT "broker_invoices_kind_check" CHECK (kind in ('taxed', 'exempt', 'fees')),
	CONSTRAINT "broker_invoices_source_check" CHECK ("broker_invoices"."source" in ('manual', 'xml')),
	CONSTRAINT "broker_invoices_folio_check" CHECK ("broker_invoices"."folio" ~ '^[1-9][0-9]{0,9}$'),
	CONSTRAINT "broker_invoices_received_check" CHECK ("broker_invoices"."received_date" >= "broker_invoices"."issue_date"),
	CONSTRAINT "broker_invoices_amounts_check" CHECK (("broker_invoices"."kind" in ('taxed', 'exempt')
            and "broker_invoices"."net_amount" >= 0 and "broker_invoices"."vat_amount" >= 0 and "broker_invoices"."total_amount" >= 0
            and "broker_invoices"."gross_amount" is null and "broker_invoices"."withholding_amount" is null and "broker_invoices"."payable_amount" is null)
        or ("broker_invoices"."kind" = 'fees'
            and "broker_invoices"."gross_amount" >= 0 and "broker_invoices"."withholding_amount" >= 0 and "broker_invoices"."payable_amount" >= 0
            and "broker_invoices"."net_amount" is null and "broker_invoices"."vat_amount" is null and "broker_invoices"."total_amount" is null)),
	CONSTRAINT "broker_invoices_acceptance_check" CHECK (("broker_invoices"."mismatch_accepted_at" is null) = ("broker_invoices"."mismatch_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "fee_withholding_rates" (
	"year" smallint PRIMARY KEY NOT NULL,
	"rate" numeric(5, 2) NOT NULL,
	CONSTRAINT "fee_withholding_rates_year_check" CHECK ("fee_withholding_rates"."year" between 2000 and 2100),
	CONSTRAINT "fee_withholding_rates_rate_check" CHECK ("fee_withholding_rates"."rate" > 0 and "fee_withholding_rates"."rate" < 100)
);
--> statement-breakpoint
ALTER TABLE "document_types" ADD COLUMN "is_broker_invoice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "workflow_tasks" ADD COLUMN "records_broker_invoice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_flow_task_id_flow_tasks_id_fk" FOREIGN KEY ("flow_task_id") REFERENCES "public"."flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_mismatch_accepted_by_profiles_id_fk" FOREIGN KEY ("mismatch_accepted_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_invoices" ADD CONSTRAINT "broker_invoices_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broker_invoices_folio_key" ON "broker_invoices" USING btree ("broker_id","kind","folio");--> statement-breakpoint
CREATE INDEX "broker_invoices_flow_idx" ON "broker_invoices" USING btree ("flow_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_types_broker_invoice_key" ON "document_types" USING btree ("is_broker_invoice") WHERE "document_types"."is_broker_invoice";--> statement-breakpoint
-- The invoices are audited under their payment flow: its 'Historial' tells who recorded, changed or
-- accepted one (decision 0039). The two tables that gained a column are installed again so the log
-- writes it.
SELECT audit_install('broker_invoices', '{id}', 'flows', 'r.flow_id');
--> statement-breakpoint
SELECT audit_install('workflow_tasks', '{id}', 'workflows',
  '(SELECT s.workflow_id FROM workflow_stages s WHERE s.id = r.stage_id)');
--> statement-breakpoint
SELECT audit_install('document_types', '{id}', 'document_types', 'r.id');
--> statement-breakpoint
-- Where the broker's invoice is received: the first payment's and the second's (definitions are rows).
UPDATE workflow_tasks t SET records_broker_invoice = true
  FROM workflow_stages s JOIN workflows w ON w.id = s.workflow_id
 WHERE s.id = t.stage_id
   AND ((w.name = 'Flujo de Pago Principal' AND t.name = 'Recepción Factura Broker')
     OR (w.name = 'Flujo de Segundo Pago' AND t.name = 'Recepción Factura 2 Broker'));
--> statement-breakpoint
UPDATE document_types SET is_broker_invoice = true WHERE name = 'Factura del broker';
--> statement-breakpoint
-- The boleta de honorarios' withholding (Ley 21.133): 2025 14,5 %, 2026 15,25 %, 2027 16 %, 2028 on 17 %.
INSERT INTO fee_withholding_rates (year, rate) VALUES (2025, 14.50), (2026, 15.25), (2027, 16.00), (2028, 17.00);
