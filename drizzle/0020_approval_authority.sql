CREATE TABLE "flow_task_rejections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"flow_task_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"rejected_by" uuid,
	"rejected_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "flow_task_rejections_reason_not_blank" CHECK (btrim("flow_task_rejections"."reason") <> '')
);
--> statement-breakpoint
ALTER TABLE "workflow_tasks" ADD COLUMN "is_retired" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "flow_task_rejections" ADD CONSTRAINT "flow_task_rejections_flow_task_id_flow_tasks_id_fk" FOREIGN KEY ("flow_task_id") REFERENCES "public"."flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_rejections" ADD CONSTRAINT "flow_task_rejections_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_task_rejections" ADD CONSTRAINT "flow_task_rejections_rejected_by_profiles_id_fk" FOREIGN KEY ("rejected_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_task_rejections_task_idx" ON "flow_task_rejections" USING btree ("flow_task_id","rejected_at");--> statement-breakpoint
CREATE INDEX "flow_task_rejections_flow_idx" ON "flow_task_rejections" USING btree ("flow_id");--> statement-breakpoint
-- Issue 26. Tasks retired from the business's flow were told by a '[DEPRECATED]' name prefix (spec
-- part 2 §9); from here on the flag is the truth.
UPDATE workflow_tasks SET is_retired = true WHERE name LIKE '[DEPRECATED]%';
--> statement-breakpoint
SELECT audit_install('flow_task_rejections', '{id}', 'flows', 'r.flow_id');
--> statement-breakpoint
-- Rejections were told by their 'RECHAZO: ' comment (anyone could write one). An approval blocked now
-- whose newest comment is such a comment was rejected by its author: that becomes its rejection
-- (decision 0026). Older rejections of approvals moved on since stay in their comments only.
INSERT INTO flow_task_rejections (flow_task_id, flow_id, rejected_by, rejected_at, reason)
SELECT ft.id, ft.flow_id, c.user_id, c.created_at, substr(c.content, length('RECHAZO: ') + 1)
  FROM flow_tasks ft
  JOIN workflow_tasks t ON t.id = ft.task_id AND t.is_approval
  CROSS JOIN LATERAL (SELECT cm.user_id, cm.created_at, cm.content FROM flow_task_comments cm
                       WHERE cm.flow_task_id = ft.id ORDER BY cm.created_at DESC, cm.id DESC LIMIT 1) c
 WHERE ft.status = 'blocked' AND c.content LIKE 'RECHAZO: %' AND btrim(substr(c.content, length('RECHAZO: ') + 1)) <> '';
--> statement-breakpoint
-- The follow-up's fixed stage order (spec part 2 §9), once in SQL: FOLLOW_UP_STAGE_ORDER of
-- src/shared/domain/workflow/names.ts says the same (a test holds them equal); unknown stages last.
CREATE FUNCTION follow_up_stage_rank(stage_name text) RETURNS smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_position(ARRAY['Reparos', 'Reserva', 'Promesa', 'Escrituración', 'Solicitud Liquidación',
    'Aprobación Jefe Inversiones', 'Aprobación Gerente Comercial', 'Aprobación Operaciones',
    'Aprobación Control de Gestión', 'Orden de Compra', 'Facturación', 'Pago', 'Entrada']::text[], stage_name), 14)::smallint
$$;
--> statement-breakpoint
-- The open task rows (workflows.md §6): not completed and not blocked, of a flow in progress. The one
-- SQL definition of "open" that the inboxes' triggers, the badge, the approvals and the reports read;
-- isPendingTask in src/shared/domain/workflow/statuses.ts is the same rule (a property test compares
-- them on random flows).
CREATE VIEW open_flow_tasks AS
  SELECT ft.id, ft.flow_id, ft.task_id, ft.status, ft.started_at, ft.days_to_complete,
         f.kind, f.reservation_id, f.is_second_payment, f.started_at AS flow_started_at, f.created_at AS flow_created_at
    FROM flow_tasks ft
    JOIN flows f ON f.id = ft.flow_id
   WHERE ft.status IN ('pending', 'in_progress') AND f.status = 'in_progress';
--> statement-breakpoint
-- The pending set: every assignee of an open task row.
CREATE VIEW pending_task_assignments AS
  SELECT a.user_id, a.assigned_at, o.id AS flow_task_id, o.flow_id, o.task_id, o.status, o.started_at,
         o.days_to_complete, o.kind, o.reservation_id
    FROM flow_task_assignees a
    JOIN open_flow_tasks o ON o.id = a.flow_task_id;
--> statement-breakpoint
-- The inbox functions of 0013, now reading the one definition (same rows, same order).
CREATE OR REPLACE FUNCTION task_inbox_refresh(task_row_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM task_inbox WHERE flow_task_id = ANY (task_row_ids);
  INSERT INTO task_inbox (flow_task_id, user_id, flow_id, stage_name, stage_rank, stage_order, assigned_at)
  SELECT p.flow_task_id, p.user_id, p.flow_id, s.name, follow_up_stage_rank(s.name), s.sort_order, p.assigned_at
    FROM pending_task_assignments p
    JOIN workflow_tasks t ON t.id = p.task_id
    JOIN workflow_stages s ON s.id = t.stage_id
   WHERE p.flow_task_id = ANY (task_row_ids)
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION task_inbox_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM task_inbox;
  INSERT INTO task_inbox (flow_task_id, user_id, flow_id, stage_name, stage_rank, stage_order, assigned_at)
  SELECT p.flow_task_id, p.user_id, p.flow_id, s.name, follow_up_stage_rank(s.name), s.sort_order, p.assigned_at
    FROM pending_task_assignments p
    JOIN workflow_tasks t ON t.id = p.task_id
    JOIN workflow_stages s ON s.id = t.stage_id;
$$;
