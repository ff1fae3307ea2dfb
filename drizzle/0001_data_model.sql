CREATE TABLE "broker_commissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"broker_id" uuid NOT NULL,
	"commission_amount" numeric(14, 2) NOT NULL,
	"commission_includes_tax" boolean DEFAULT true NOT NULL,
	"net_commission" numeric(14, 2) DEFAULT '0' NOT NULL,
	"commission_for_discount" boolean DEFAULT true NOT NULL,
	"pays_secondary" boolean DEFAULT false NOT NULL,
	"number_of_payments" smallint DEFAULT 1 NOT NULL,
	"first_payment_percentage" smallint DEFAULT 100 NOT NULL,
	"purchase_order" text,
	"invoice_1" text,
	"invoice_1_date" date,
	"payment_1_date" date,
	"invoice_2" text,
	"invoice_2_date" date,
	"payment_2_date" date,
	"difference" numeric(14, 2) DEFAULT '0' NOT NULL,
	"at_risk" boolean DEFAULT false NOT NULL,
	"at_risk_reason" text,
	"penalty_amount" numeric(14, 2),
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "broker_commissions_reservation_id_unique" UNIQUE("reservation_id"),
	CONSTRAINT "broker_commissions_amount_non_negative" CHECK ("broker_commissions"."commission_amount" >= 0),
	CONSTRAINT "broker_commissions_penalty_non_negative" CHECK ("broker_commissions"."penalty_amount" is null or "broker_commissions"."penalty_amount" >= 0),
	CONSTRAINT "broker_commissions_number_of_payments" CHECK ("broker_commissions"."number_of_payments" in (1, 2)),
	CONSTRAINT "broker_commissions_first_payment_percentage" CHECK ("broker_commissions"."first_payment_percentage" in (25, 50, 100))
);
--> statement-breakpoint
CREATE TABLE "brokers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rut" text NOT NULL,
	"name" text NOT NULL,
	"business_name" text NOT NULL,
	"legal_representative" text NOT NULL,
	"legal_representative_rut" text NOT NULL,
	"commercial_address" text NOT NULL,
	"commercial_address_commune" text NOT NULL,
	"commercial_contact_name" text NOT NULL,
	"commercial_contact_phone" text,
	"commercial_contact_email" text,
	"constitution_date" date NOT NULL,
	"constitution_notary" text NOT NULL,
	"operations_contact_name" text,
	"operations_contact_phone" text,
	"operations_contact_email" text,
	"finance_contact_name" text,
	"finance_contact_phone" text,
	"finance_contact_email" text,
	"kam_name" text NOT NULL,
	"kam_phone" text,
	"kam_email" text,
	"kam_receives_commission" boolean DEFAULT false NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(translate(name || ' ' || business_name || ' ' || rut, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))) STORED NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "brokers_rut_unique" UNIQUE("rut")
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rut" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"birth_date" date NOT NULL,
	"phone" text,
	"email" text,
	"search_text" text GENERATED ALWAYS AS (lower(translate(rut || ' ' || first_name || ' ' || last_name, 'ÁÉÍÓÚÜÑáéíóúüñ', 'AEIOUUNaeiouun'))) STORED NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"deleted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "commission_flow_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"commission_flow_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"status" text DEFAULT 'blocked' NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"assigned_at" timestamp with time zone,
	"assignee_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "commission_flow_tasks_status_check" CHECK (status in ('pending', 'in_progress', 'completed', 'blocked'))
);
--> statement-breakpoint
CREATE TABLE "commission_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"broker_commission_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"current_stage_id" uuid,
	"status" text DEFAULT 'pending' NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"is_second_payment" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "commission_flows_status_check" CHECK (status in ('pending', 'in_progress', 'completed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "commission_task_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"commission_flow_task_id" uuid NOT NULL,
	"user_id" uuid,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "commission_task_comments_content_not_blank" CHECK (btrim("commission_task_comments"."content") <> '')
);
--> statement-breakpoint
CREATE TABLE "default_seller" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"singleton" boolean DEFAULT true NOT NULL,
	"user_id" uuid NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "default_seller_singleton_unique" UNIQUE("singleton"),
	CONSTRAINT "default_seller_singleton_check" CHECK ("default_seller"."singleton")
);
--> statement-breakpoint
CREATE TABLE "default_task_assignments" (
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "default_task_assignments_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "payment_flow_stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_flow_task_prerequisites" (
	"task_id" uuid NOT NULL,
	"prerequisite_task_id" uuid NOT NULL,
	CONSTRAINT "payment_flow_task_prerequisites_task_id_prerequisite_task_id_pk" PRIMARY KEY("task_id","prerequisite_task_id"),
	CONSTRAINT "payment_flow_task_prerequisites_not_self" CHECK ("payment_flow_task_prerequisites"."task_id" <> "payment_flow_task_prerequisites"."prerequisite_task_id")
);
--> statement-breakpoint
CREATE TABLE "payment_flow_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL,
	"days_to_complete" integer,
	"default_assignee_id" uuid
);
--> statement-breakpoint
CREATE TABLE "payment_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_flows_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"position" text NOT NULL,
	"user_type" text NOT NULL,
	"is_seller" boolean DEFAULT false NOT NULL,
	"avatar_url" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "profiles_user_type_check" CHECK (user_type in ('Administrador', 'KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"stage" text NOT NULL,
	"commune" text NOT NULL,
	"deadline" date NOT NULL,
	"real_estate_agency_id" uuid NOT NULL,
	"logo_url" text,
	"total_units" integer,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "projects_total_units_check" CHECK ("projects"."total_units" is null or "projects"."total_units" >= 0)
);
--> statement-breakpoint
CREATE TABLE "promotions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"beneficiary" text NOT NULL,
	"rut" text NOT NULL,
	"bank" text NOT NULL,
	"account_type" text NOT NULL,
	"account_number" text NOT NULL,
	"email" text NOT NULL,
	"purchase_order" text,
	"document_number" text,
	"document_date" date,
	"payment_date" date,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "promotions_amount_non_negative" CHECK ("promotions"."amount" >= 0),
	CONSTRAINT "promotions_account_type_check" CHECK (account_type in ('Cuenta Corriente', 'Cuenta Vista', 'Cuenta de Ahorro'))
);
--> statement-breakpoint
CREATE TABLE "real_estate_agencies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rut" text NOT NULL,
	"business_name" text NOT NULL,
	"bank" text NOT NULL,
	"account_type" text NOT NULL,
	"account_number" text NOT NULL,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "real_estate_agencies_rut_unique" UNIQUE("rut"),
	CONSTRAINT "real_estate_agencies_account_type_check" CHECK (account_type in ('Cuenta Corriente', 'Cuenta Vista', 'Cuenta de Ahorro'))
);
--> statement-breakpoint
CREATE TABLE "reservation_flow_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_flow_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"days_to_complete" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "reservation_flow_tasks_status_check" CHECK (status in ('pending', 'in_progress', 'completed', 'blocked'))
);
--> statement-breakpoint
CREATE TABLE "reservation_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"current_stage_id" uuid,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "reservation_flows_reservation_id_unique" UNIQUE("reservation_id"),
	CONSTRAINT "reservation_flows_status_check" CHECK (status in ('pending', 'in_progress', 'completed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_number" text NOT NULL,
	"client_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"seller_id" uuid,
	"reservation_date" date NOT NULL,
	"apartment_number" text NOT NULL,
	"parking_number" text,
	"storage_number" text,
	"apartment_price" numeric(14, 2) DEFAULT '0' NOT NULL,
	"parking_price" numeric(14, 2) DEFAULT '0' NOT NULL,
	"storage_price" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total_price" numeric(14, 2) DEFAULT '0' NOT NULL,
	"column_discount" numeric(9, 6) DEFAULT '0' NOT NULL,
	"additional_discount" numeric(9, 6) DEFAULT '0' NOT NULL,
	"other_discount" numeric(9, 6) DEFAULT '0' NOT NULL,
	"minimum_price" numeric(14, 2) DEFAULT '0' NOT NULL,
	"reservation_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"promise_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"down_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"credit_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"subsidy_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"recovery_payment" numeric(14, 2) DEFAULT '0' NOT NULL,
	"is_with_broker" boolean DEFAULT false NOT NULL,
	"broker_id" uuid,
	"promise_date" date,
	"deed_date" date,
	"commission_payment_month" date,
	"commission_projection_month" date,
	"bank_name" text,
	"bank_executive" text,
	"bank_executive_email" text,
	"bank_executive_phone" text,
	"is_rescinded" boolean DEFAULT false NOT NULL,
	"rescinded_at" timestamp with time zone,
	"rescinded_reason" text,
	"rescinded_by" uuid,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "reservations_reservation_number_unique" UNIQUE("reservation_number"),
	CONSTRAINT "reservations_number_not_blank" CHECK (btrim("reservations"."reservation_number") <> ''),
	CONSTRAINT "reservations_amounts_non_negative" CHECK ("reservations"."apartment_price" >= 0 and "reservations"."parking_price" >= 0 and "reservations"."storage_price" >= 0
        and "reservations"."reservation_payment" >= 0 and "reservations"."promise_payment" >= 0 and "reservations"."down_payment" >= 0
        and "reservations"."credit_payment" >= 0 and "reservations"."subsidy_payment" >= 0),
	CONSTRAINT "reservations_discounts_fraction" CHECK ("reservations"."column_discount" between 0 and 1 and "reservations"."additional_discount" between 0 and 1
        and "reservations"."other_discount" between 0 and 1),
	CONSTRAINT "reservations_broker_when_with_broker" CHECK (("reservations"."is_with_broker" and "reservations"."broker_id" is not null) or (not "reservations"."is_with_broker" and "reservations"."broker_id" is null)),
	CONSTRAINT "reservations_months_first_day" CHECK (("reservations"."commission_payment_month" is null or extract(day from "reservations"."commission_payment_month") = 1)
        and ("reservations"."commission_projection_month" is null or extract(day from "reservations"."commission_projection_month") = 1))
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sale_flow_stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_flow_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL,
	"days_to_complete" integer
);
--> statement-breakpoint
CREATE TABLE "sale_flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sale_flows_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "task_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_flow_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"assigned_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_comment_mentions" (
	"comment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "task_comment_mentions_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "task_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_flow_task_id" uuid NOT NULL,
	"user_id" uuid,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_comments_content_not_blank" CHECK (btrim("task_comments"."content") <> '')
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD CONSTRAINT "broker_commissions_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD CONSTRAINT "broker_commissions_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD CONSTRAINT "broker_commissions_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_commissions" ADD CONSTRAINT "broker_commissions_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokers" ADD CONSTRAINT "brokers_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brokers" ADD CONSTRAINT "brokers_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_deleted_by_profiles_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flow_tasks" ADD CONSTRAINT "commission_flow_tasks_commission_flow_id_commission_flows_id_fk" FOREIGN KEY ("commission_flow_id") REFERENCES "public"."commission_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flow_tasks" ADD CONSTRAINT "commission_flow_tasks_task_id_payment_flow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."payment_flow_tasks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flow_tasks" ADD CONSTRAINT "commission_flow_tasks_assignee_id_profiles_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flows" ADD CONSTRAINT "commission_flows_broker_commission_id_broker_commissions_id_fk" FOREIGN KEY ("broker_commission_id") REFERENCES "public"."broker_commissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flows" ADD CONSTRAINT "commission_flows_flow_id_payment_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."payment_flows"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flows" ADD CONSTRAINT "commission_flows_current_stage_id_payment_flow_stages_id_fk" FOREIGN KEY ("current_stage_id") REFERENCES "public"."payment_flow_stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flows" ADD CONSTRAINT "commission_flows_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_flows" ADD CONSTRAINT "commission_flows_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_task_comments" ADD CONSTRAINT "commission_task_comments_commission_flow_task_id_commission_flow_tasks_id_fk" FOREIGN KEY ("commission_flow_task_id") REFERENCES "public"."commission_flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_task_comments" ADD CONSTRAINT "commission_task_comments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "default_seller" ADD CONSTRAINT "default_seller_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "default_seller" ADD CONSTRAINT "default_seller_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "default_task_assignments" ADD CONSTRAINT "default_task_assignments_task_id_sale_flow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."sale_flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "default_task_assignments" ADD CONSTRAINT "default_task_assignments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "default_task_assignments" ADD CONSTRAINT "default_task_assignments_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "default_task_assignments" ADD CONSTRAINT "default_task_assignments_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_flow_stages" ADD CONSTRAINT "payment_flow_stages_flow_id_payment_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."payment_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_flow_task_prerequisites" ADD CONSTRAINT "payment_flow_task_prerequisites_task_id_payment_flow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."payment_flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_flow_task_prerequisites" ADD CONSTRAINT "payment_flow_task_prerequisites_prerequisite_task_id_payment_flow_tasks_id_fk" FOREIGN KEY ("prerequisite_task_id") REFERENCES "public"."payment_flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_flow_tasks" ADD CONSTRAINT "payment_flow_tasks_stage_id_payment_flow_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."payment_flow_stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_flow_tasks" ADD CONSTRAINT "payment_flow_tasks_default_assignee_id_profiles_id_fk" FOREIGN KEY ("default_assignee_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_real_estate_agency_id_real_estate_agencies_id_fk" FOREIGN KEY ("real_estate_agency_id") REFERENCES "public"."real_estate_agencies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "promotions" ADD CONSTRAINT "promotions_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD CONSTRAINT "real_estate_agencies_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "real_estate_agencies" ADD CONSTRAINT "real_estate_agencies_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flow_tasks" ADD CONSTRAINT "reservation_flow_tasks_reservation_flow_id_reservation_flows_id_fk" FOREIGN KEY ("reservation_flow_id") REFERENCES "public"."reservation_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flow_tasks" ADD CONSTRAINT "reservation_flow_tasks_task_id_sale_flow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."sale_flow_tasks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flows" ADD CONSTRAINT "reservation_flows_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flows" ADD CONSTRAINT "reservation_flows_flow_id_sale_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."sale_flows"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flows" ADD CONSTRAINT "reservation_flows_current_stage_id_sale_flow_stages_id_fk" FOREIGN KEY ("current_stage_id") REFERENCES "public"."sale_flow_stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flows" ADD CONSTRAINT "reservation_flows_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_flows" ADD CONSTRAINT "reservation_flows_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_seller_id_profiles_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_rescinded_by_profiles_id_fk" FOREIGN KEY ("rescinded_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_flow_stages" ADD CONSTRAINT "sale_flow_stages_flow_id_sale_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."sale_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_flow_tasks" ADD CONSTRAINT "sale_flow_tasks_stage_id_sale_flow_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."sale_flow_stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignments" ADD CONSTRAINT "task_assignments_reservation_flow_id_reservation_flows_id_fk" FOREIGN KEY ("reservation_flow_id") REFERENCES "public"."reservation_flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignments" ADD CONSTRAINT "task_assignments_task_id_sale_flow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."sale_flow_tasks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignments" ADD CONSTRAINT "task_assignments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignments" ADD CONSTRAINT "task_assignments_assigned_by_profiles_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comment_mentions" ADD CONSTRAINT "task_comment_mentions_comment_id_task_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."task_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comment_mentions" ADD CONSTRAINT "task_comment_mentions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_reservation_flow_task_id_reservation_flow_tasks_id_fk" FOREIGN KEY ("reservation_flow_task_id") REFERENCES "public"."reservation_flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_comments" ADD CONSTRAINT "task_comments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broker_commissions_broker_idx" ON "broker_commissions" USING btree ("broker_id");--> statement-breakpoint
CREATE INDEX "brokers_name_idx" ON "brokers" USING btree ("name");--> statement-breakpoint
CREATE INDEX "brokers_search_trgm_idx" ON "brokers" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "clients_rut_key" ON "clients" USING btree ("rut") WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_newest_idx" ON "clients" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "clients_search_trgm_idx" ON "clients" USING gin ("search_text" gin_trgm_ops) WHERE "clients"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "commission_flow_tasks_flow_task_key" ON "commission_flow_tasks" USING btree ("commission_flow_id","task_id");--> statement-breakpoint
CREATE INDEX "commission_flow_tasks_open_assignee_idx" ON "commission_flow_tasks" USING btree ("assignee_id") WHERE "commission_flow_tasks"."status" in ('pending', 'in_progress');--> statement-breakpoint
CREATE UNIQUE INDEX "commission_flows_commission_payment_key" ON "commission_flows" USING btree ("broker_commission_id","is_second_payment");--> statement-breakpoint
CREATE INDEX "commission_flows_started_idx" ON "commission_flows" USING btree ("started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "commission_flows_status_idx" ON "commission_flows" USING btree ("status");--> statement-breakpoint
CREATE INDEX "commission_task_comments_task_idx" ON "commission_task_comments" USING btree ("commission_flow_task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_flow_stages_order_key" ON "payment_flow_stages" USING btree ("flow_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_flow_tasks_order_key" ON "payment_flow_tasks" USING btree ("stage_id","sort_order");--> statement-breakpoint
CREATE INDEX "payment_flow_tasks_name_idx" ON "payment_flow_tasks" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "profiles_email_key" ON "profiles" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "profiles_sellers_idx" ON "profiles" USING btree ("first_name") WHERE "profiles"."is_seller";--> statement-breakpoint
CREATE INDEX "projects_name_idx" ON "projects" USING btree ("name");--> statement-breakpoint
CREATE INDEX "projects_agency_idx" ON "projects" USING btree ("real_estate_agency_id");--> statement-breakpoint
CREATE INDEX "promotions_reservation_idx" ON "promotions" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "real_estate_agencies_business_name_idx" ON "real_estate_agencies" USING btree ("business_name");--> statement-breakpoint
CREATE UNIQUE INDEX "reservation_flow_tasks_flow_task_key" ON "reservation_flow_tasks" USING btree ("reservation_flow_id","task_id");--> statement-breakpoint
CREATE INDEX "reservation_flows_status_idx" ON "reservation_flows" USING btree ("status");--> statement-breakpoint
CREATE INDEX "reservations_date_idx" ON "reservations" USING btree ("reservation_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reservations_newest_idx" ON "reservations" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "reservations_client_idx" ON "reservations" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "reservations_project_idx" ON "reservations" USING btree ("project_id");--> statement-breakpoint
CREATE INDEX "reservations_broker_idx" ON "reservations" USING btree ("broker_id");--> statement-breakpoint
CREATE INDEX "reservations_seller_idx" ON "reservations" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "reservations_number_trgm_idx" ON "reservations" USING gin (lower("reservation_number") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reservations_apartment_trgm_idx" ON "reservations" USING gin (lower("apartment_number") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "reservations_payment_month_idx" ON "reservations" USING btree ("commission_payment_month");--> statement-breakpoint
CREATE INDEX "reservations_projection_month_idx" ON "reservations" USING btree ("commission_projection_month");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_flow_stages_order_key" ON "sale_flow_stages" USING btree ("flow_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "sale_flow_tasks_order_key" ON "sale_flow_tasks" USING btree ("stage_id","sort_order");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "task_assignments_flow_task_user_key" ON "task_assignments" USING btree ("reservation_flow_id","task_id","user_id");--> statement-breakpoint
CREATE INDEX "task_assignments_user_idx" ON "task_assignments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_comment_mentions_user_idx" ON "task_comment_mentions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_comments_task_idx" ON "task_comments" USING btree ("reservation_flow_task_id");