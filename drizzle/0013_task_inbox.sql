CREATE TABLE "task_inbox" (
	"flow_task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"flow_id" uuid NOT NULL,
	"stage_name" text NOT NULL,
	"stage_rank" smallint NOT NULL,
	"stage_order" integer NOT NULL,
	"assigned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "task_inbox_flow_task_id_user_id_pk" PRIMARY KEY("flow_task_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "task_inbox" ADD CONSTRAINT "task_inbox_flow_task_id_flow_tasks_id_fk" FOREIGN KEY ("flow_task_id") REFERENCES "public"."flow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_inbox" ADD CONSTRAINT "task_inbox_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_inbox" ADD CONSTRAINT "task_inbox_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_inbox_user_idx" ON "task_inbox" USING btree ("user_id","stage_rank","stage_name",(-"stage_order"),"assigned_at","flow_task_id");--> statement-breakpoint
CREATE INDEX "task_inbox_all_idx" ON "task_inbox" USING btree ("stage_rank","stage_name",(-"stage_order"),"assigned_at","flow_task_id","user_id");--> statement-breakpoint
CREATE INDEX "task_inbox_flow_idx" ON "task_inbox" USING btree ("flow_id");--> statement-breakpoint
-- The inbox rows of some task rows, recomputed from the tables (decision 0021): every assignee of
-- each task row that is pending (not completed, not blocked, of a flow in progress) and nothing else.
-- Exact whatever order the statements of a command and their triggers run in. The stage rank is the
-- follow-up's fixed order (spec part 2 §9, FOLLOW_UP_STAGE_ORDER in shared/domain/workflow/names.ts).
CREATE FUNCTION task_inbox_refresh(task_row_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM task_inbox WHERE flow_task_id = ANY (task_row_ids);
  INSERT INTO task_inbox (flow_task_id, user_id, flow_id, stage_name, stage_rank, stage_order, assigned_at)
  SELECT a.flow_task_id, a.user_id, ft.flow_id, s.name,
         coalesce(array_position(ARRAY['Reparos', 'Reserva', 'Promesa', 'Escrituración', 'Solicitud Liquidación', 'Aprobación Jefe Inversiones', 'Aprobación Gerente Comercial', 'Aprobación Operaciones', 'Aprobación Control de Gestión', 'Orden de Compra', 'Facturación', 'Pago', 'Entrada']::text[], s.name), 14), s.sort_order, a.assigned_at
    FROM flow_task_assignees a
    JOIN flow_tasks ft ON ft.id = a.flow_task_id
    JOIN flows f ON f.id = ft.flow_id
    JOIN workflow_tasks t ON t.id = ft.task_id
    JOIN workflow_stages s ON s.id = t.stage_id
   WHERE a.flow_task_id = ANY (task_row_ids)
     AND ft.status IN ('pending', 'in_progress')
     AND f.status = 'in_progress'
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
-- Every inbox row from scratch: after bulk loads that skip triggers (the benchmark generator) and here.
CREATE FUNCTION task_inbox_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM task_inbox;
  INSERT INTO task_inbox (flow_task_id, user_id, flow_id, stage_name, stage_rank, stage_order, assigned_at)
  SELECT a.flow_task_id, a.user_id, ft.flow_id, s.name,
         coalesce(array_position(ARRAY['Reparos', 'Reserva', 'Promesa', 'Escrituración', 'Solicitud Liquidación', 'Aprobación Jefe Inversiones', 'Aprobación Gerente Comercial', 'Aprobación Operaciones', 'Aprobación Control de Gestión', 'Orden de Compra', 'Facturación', 'Pago', 'Entrada']::text[], s.name), 14), s.sort_order, a.assigned_at
    FROM flow_task_assignees a
    JOIN flow_tasks ft ON ft.id = a.flow_task_id
    JOIN flows f ON f.id = ft.flow_id
    JOIN workflow_tasks t ON t.id = ft.task_id
    JOIN workflow_stages s ON s.id = t.stage_id
   WHERE ft.status IN ('pending', 'in_progress')
     AND f.status = 'in_progress';
$$;
--> statement-breakpoint
-- Statement-level triggers with transition tables: a set-based write refreshes each task row once.
CREATE FUNCTION task_inbox_assignees_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM task_inbox_refresh(array(SELECT DISTINCT flow_task_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM task_inbox_refresh(array(SELECT DISTINCT flow_task_id FROM old_rows));
  ELSE
    PERFORM task_inbox_refresh(array(SELECT flow_task_id FROM old_rows UNION SELECT flow_task_id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER task_inbox_assignees_inserted AFTER INSERT ON flow_task_assignees
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_assignees_changed();
--> statement-breakpoint
CREATE TRIGGER task_inbox_assignees_deleted AFTER DELETE ON flow_task_assignees
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_assignees_changed();
--> statement-breakpoint
CREATE TRIGGER task_inbox_assignees_updated AFTER UPDATE ON flow_task_assignees
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_assignees_changed();
--> statement-breakpoint
-- Only task rows whose status changed can enter or leave an inbox.
CREATE FUNCTION task_inbox_tasks_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM task_inbox_refresh(array(
    SELECT n.id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE o.status IS DISTINCT FROM n.status));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER task_inbox_tasks_updated AFTER UPDATE ON flow_tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_tasks_updated();
--> statement-breakpoint
-- A flow started, completed, cancelled or reopened moves all its task rows in or out.
CREATE FUNCTION task_inbox_flows_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM task_inbox_refresh(array(
    SELECT ft.id FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN flow_tasks ft ON ft.flow_id = n.id
     WHERE o.status IS DISTINCT FROM n.status));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER task_inbox_flows_updated AFTER UPDATE ON flows
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_flows_updated();
--> statement-breakpoint
-- A stage renamed or moved in its workflow (a re-shaped definition) re-sorts its inbox rows.
CREATE FUNCTION task_inbox_stages_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM task_inbox_refresh(array(
    SELECT ft.id FROM old_rows o JOIN new_rows n ON n.id = o.id
      JOIN workflow_tasks t ON t.stage_id = n.id JOIN flow_tasks ft ON ft.task_id = t.id
     WHERE (o.name, o.sort_order) IS DISTINCT FROM (n.name, n.sort_order)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER task_inbox_stages_updated AFTER UPDATE ON workflow_stages
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_stages_updated();
--> statement-breakpoint
SELECT task_inbox_rebuild();
