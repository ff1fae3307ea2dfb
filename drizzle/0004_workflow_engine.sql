CREATE TABLE "flow_task_assignees" (
	"flow_task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"assigned_by" uuid,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_task_assignees_flow_task_id_user_id_pk" PRIMARY KEY("flow_task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "flow_task_comment_mentions" (
	"comment_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	CONSTRAINT "flow_task_comment_mentions_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "flow_task_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_task_id" uuid NOT NULL,
	"user_id" uuid,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flow_task_comments_content_not_blank" CHECK (btrim("flow_task_comments"."content") <> '')
);
--> statement-breakpoint
CREATE TABLE "flow_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_id" uuid NOT NULL,
	"task_id" uuid NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"completed_by" uuid,
	"days_to_complete" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "flow_tasks_status_check" CHECK (status in ('pending', 'in_progress', 'completed', 'blocked')),
	CONSTRAINT "flow_tasks_completion_check" CHECK (("flow_tasks"."status" = 'completed') = ("flow_tasks"."completed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "flows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"reservation_id" uuid NOT NULL,
	"broker_commission_id" uuid,
	"is_second_payment" boolean DEFAULT false NOT NULL,
	"current_stage_id" uuid,
	"status" text NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "flows_kind_check" CHECK (kind in ('sale', 'payment')),
	CONSTRAINT "flows_status_check" CHECK (status in ('pending', 'in_progress', 'completed', 'cancelled')),
	CONSTRAINT "flows_subject_check" CHECK (("flows"."kind" = 'sale' and "flows"."broker_commission_id" is null and not "flows"."is_second_payment")
        or ("flows"."kind" = 'payment' and "flows"."broker_commission_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "workflow_stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workflow_task_default_assignees" (
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflow_task_default_assignees_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workflow_task_prerequisites" (
	"task_id" uuid NOT NULL,
	"prerequisite_task_id" uuid NOT NULL,
	CONSTRAINT "workflow_task_prerequisites_task_id_prerequisite_task_id_pk" PRIMARY KEY("task_id","prerequisite_task_id"),
	CONSTRAINT "workflow_task_prerequisites_not_self" CHECK ("workflow_task_prerequisites"."task_id" <> "workflow_task_prerequisites"."prerequisite_task_id")
);
--> statement-breakpoint
CREATE TABLE "workflow_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"name" text NOT NULL,
	"sort_order" integer NOT NULL,
	"days_to_complete" integer,
	"assign_to_seller" boolean DEFAULT false NOT NULL,
	"is_approval" boolean DEFAULT false NOT NULL,
	CONSTRAINT "workflow_tasks_days_check" CHECK ("workflow_tasks"."days_to_complete" is null or "workflow_tasks"."days_to_complete" >= 0)
);
--> statement-breakpoint
CREATE TABLE "workflows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"task_opening" text NOT NULL,
	"single_assignee" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflows_name_unique" UNIQUE("name"),
	CONSTRAINT "workflows_kind_check" CHECK (kind in ('sale', 'payment')),
	CONSTRAINT "workflows_task_opening_check" CHECK (task_opening in ('stage', 'prerequisites'))
);
--> statement-breakpoint
ALTER TABLE "flow_task_assignees" ADD CONSTRAINT "flow_task_assignees_flow_task_id_flow_tasks_id_fk" FOREIGN KEY ("flow_task_id") REFERENCES "public"."flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_assignees" ADD CONSTRAINT "flow_task_assignees_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_assignees" ADD CONSTRAINT "flow_task_assignees_assigned_by_profiles_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_comment_mentions" ADD CONSTRAINT "flow_task_comment_mentions_comment_id_flow_task_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."flow_task_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_comment_mentions" ADD CONSTRAINT "flow_task_comment_mentions_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_comments" ADD CONSTRAINT "flow_task_comments_flow_task_id_flow_tasks_id_fk" FOREIGN KEY ("flow_task_id") REFERENCES "public"."flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_comments" ADD CONSTRAINT "flow_task_comments_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_tasks" ADD CONSTRAINT "flow_tasks_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_tasks" ADD CONSTRAINT "flow_tasks_task_id_workflow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."workflow_tasks"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_tasks" ADD CONSTRAINT "flow_tasks_completed_by_profiles_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_broker_commission_id_broker_commissions_id_fk" FOREIGN KEY ("broker_commission_id") REFERENCES "public"."broker_commissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_current_stage_id_workflow_stages_id_fk" FOREIGN KEY ("current_stage_id") REFERENCES "public"."workflow_stages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_stages" ADD CONSTRAINT "workflow_stages_workflow_id_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_task_default_assignees" ADD CONSTRAINT "workflow_task_default_assignees_task_id_workflow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."workflow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_task_default_assignees" ADD CONSTRAINT "workflow_task_default_assignees_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_task_default_assignees" ADD CONSTRAINT "workflow_task_default_assignees_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_task_prerequisites" ADD CONSTRAINT "workflow_task_prerequisites_task_id_workflow_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."workflow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_task_prerequisites" ADD CONSTRAINT "workflow_task_prerequisites_prerequisite_task_id_workflow_tasks_id_fk" FOREIGN KEY ("prerequisite_task_id") REFERENCES "public"."workflow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_tasks" ADD CONSTRAINT "workflow_tasks_stage_id_workflow_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."workflow_stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_task_assignees_user_idx" ON "flow_task_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "flow_task_comment_mentions_user_idx" ON "flow_task_comment_mentions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "flow_task_comments_task_idx" ON "flow_task_comments" USING btree ("flow_task_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "flow_tasks_flow_task_key" ON "flow_tasks" USING btree ("flow_id","task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "flows_sale_reservation_key" ON "flows" USING btree ("reservation_id") WHERE "flows"."kind" = 'sale';--> statement-breakpoint
CREATE UNIQUE INDEX "flows_payment_commission_key" ON "flows" USING btree ("broker_commission_id","is_second_payment") WHERE "flows"."kind" = 'payment';--> statement-breakpoint
CREATE INDEX "flows_reservation_idx" ON "flows" USING btree ("reservation_id");--> statement-breakpoint
CREATE INDEX "flows_status_idx" ON "flows" USING btree ("status");--> statement-breakpoint
CREATE INDEX "flows_payment_started_idx" ON "flows" USING btree ("started_at" DESC NULLS LAST) WHERE "flows"."kind" = 'payment';--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_stages_order_key" ON "workflow_stages" USING btree ("workflow_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_tasks_order_key" ON "workflow_tasks" USING btree ("stage_id","sort_order");--> statement-breakpoint
CREATE INDEX "workflow_tasks_name_idx" ON "workflow_tasks" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_live_apartment_key" ON "reservations" USING btree ("project_id",lower("apartment_number")) WHERE not "reservations"."is_rescinded";--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_live_parking_key" ON "reservations" USING btree ("project_id",lower("parking_number")) WHERE not "reservations"."is_rescinded" and "reservations"."parking_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_live_storage_key" ON "reservations" USING btree ("project_id",lower("storage_number")) WHERE not "reservations"."is_rescinded" and "reservations"."storage_number" is not null;--> statement-breakpoint
-- Wave 1's workflow data moves into the one family of workflow tables, every id kept (so links to
-- /flujo-reservas/{id} and /pagos/flujo/{id} stay valid). 0005 drops the old tables.
INSERT INTO workflows (id, name, kind, task_opening, single_assignee, created_at)
SELECT id, name, 'sale', 'stage', false, created_at FROM sale_flows;
--> statement-breakpoint
INSERT INTO workflows (id, name, kind, task_opening, single_assignee, created_at)
SELECT id, name, 'payment', 'prerequisites', true, created_at FROM payment_flows;
--> statement-breakpoint
INSERT INTO workflow_stages (id, workflow_id, name, sort_order)
SELECT id, flow_id, name, sort_order FROM sale_flow_stages
UNION ALL
SELECT id, flow_id, name, sort_order FROM payment_flow_stages;
--> statement-breakpoint
-- "The three tasks whose name contains COF go to the seller" becomes a flag on those tasks.
INSERT INTO workflow_tasks (id, stage_id, name, sort_order, days_to_complete, assign_to_seller, is_approval)
SELECT id, stage_id, name, sort_order, days_to_complete, name LIKE '%COF%', false FROM sale_flow_tasks;
--> statement-breakpoint
-- The approvals of the payment chain (the approvals inbox lists the tasks flagged so).
INSERT INTO workflow_tasks (id, stage_id, name, sort_order, days_to_complete, assign_to_seller, is_approval)
SELECT id, stage_id, name, sort_order, days_to_complete, false,
       name IN ('VB Jefe Inversiones', 'VB Gerente Comercial', 'VB Operaciones', 'VB Control de Gestión',
                'VB OC Gerencia Comercial', 'VB OC Gerencia General', 'Aprobación de Entrada',
                'Aprobación de Entrada 2')
FROM payment_flow_tasks;
--> statement-breakpoint
INSERT INTO workflow_task_prerequisites (task_id, prerequisite_task_id)
SELECT task_id, prerequisite_task_id FROM payment_flow_task_prerequisites;
--> statement-breakpoint
INSERT INTO workflow_task_default_assignees (task_id, user_id, created_by, created_at)
SELECT task_id, user_id, created_by, created_at FROM default_task_assignments;
--> statement-breakpoint
INSERT INTO workflow_task_default_assignees (task_id, user_id)
SELECT id, default_assignee_id FROM payment_flow_tasks WHERE default_assignee_id IS NOT NULL;
--> statement-breakpoint
INSERT INTO flows (id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment, current_stage_id,
                   status, started_at, completed_at, created_by, updated_by, created_at, updated_at, version)
SELECT id, flow_id, 'sale', reservation_id, NULL, false, current_stage_id,
       status, started_at, completed_at, created_by, updated_by, created_at, updated_at, version
FROM reservation_flows;
--> statement-breakpoint
INSERT INTO flows (id, workflow_id, kind, reservation_id, broker_commission_id, is_second_payment, current_stage_id,
                   status, started_at, completed_at, created_by, updated_by, created_at, updated_at, version)
SELECT cf.id, cf.flow_id, 'payment', bc.reservation_id, cf.broker_commission_id, cf.is_second_payment, cf.current_stage_id,
       cf.status, cf.started_at, cf.completed_at, cf.created_by, cf.updated_by, cf.created_at, cf.updated_at, cf.version
FROM commission_flows cf
JOIN broker_commissions bc ON bc.id = cf.broker_commission_id;
--> statement-breakpoint
-- A completed task with no completion time (not producible by wave 1's code) gets its last update.
INSERT INTO flow_tasks (id, flow_id, task_id, status, started_at, completed_at, completed_by, days_to_complete,
                        created_at, updated_at, version)
SELECT id, reservation_flow_id, task_id, status, started_at,
       CASE WHEN status = 'completed' THEN coalesce(completed_at, updated_at) END, NULL, days_to_complete,
       created_at, updated_at, version
FROM reservation_flow_tasks;
--> statement-breakpoint
-- A completed payment task keeps no assignee now: its former assignee is recorded as who completed it.
INSERT INTO flow_tasks (id, flow_id, task_id, status, started_at, completed_at, completed_by, days_to_complete,
                        created_at, updated_at, version)
SELECT cft.id, cft.commission_flow_id, cft.task_id, cft.status, cft.started_at,
       CASE WHEN cft.status = 'completed' THEN coalesce(cft.completed_at, cft.updated_at) END,
       CASE WHEN cft.status = 'completed' THEN cft.assignee_id END, pft.days_to_complete,
       cft.created_at, cft.updated_at, cft.version
FROM commission_flow_tasks cft
JOIN payment_flow_tasks pft ON pft.id = cft.task_id;
--> statement-breakpoint
INSERT INTO flow_task_assignees (flow_task_id, user_id, assigned_by, assigned_at)
SELECT rft.id, ta.user_id, ta.assigned_by, ta.created_at
FROM task_assignments ta
JOIN reservation_flow_tasks rft ON rft.reservation_flow_id = ta.reservation_flow_id AND rft.task_id = ta.task_id
WHERE rft.status <> 'completed';
--> statement-breakpoint
INSERT INTO flow_task_assignees (flow_task_id, user_id, assigned_by, assigned_at)
SELECT id, assignee_id, NULL, coalesce(assigned_at, updated_at)
FROM commission_flow_tasks
WHERE assignee_id IS NOT NULL AND status <> 'completed';
--> statement-breakpoint
INSERT INTO flow_task_comments (id, flow_task_id, user_id, content, created_at)
SELECT id, reservation_flow_task_id, user_id, content, created_at FROM task_comments
UNION ALL
SELECT id, commission_flow_task_id, user_id, content, created_at FROM commission_task_comments;
--> statement-breakpoint
INSERT INTO flow_task_comment_mentions (comment_id, user_id)
SELECT comment_id, user_id FROM task_comment_mentions;
