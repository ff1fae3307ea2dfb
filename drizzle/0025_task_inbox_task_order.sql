-- Issue 28 §6: the cards of one assignment instant (a flow's tasks assigned together) came in the
-- random order of their task row ids. The inbox keeps each task's order in its stage, and the pages
-- order ties by flow, then by that order: the flow's own order. The indexes take the two keys so a
-- page is still one backward scan of a group's range with a one-row-comparison keyset.
DROP INDEX "task_inbox_user_idx";--> statement-breakpoint
DROP INDEX "task_inbox_all_idx";--> statement-breakpoint
ALTER TABLE "task_inbox" ADD COLUMN "task_order" integer;--> statement-breakpoint
UPDATE task_inbox i SET task_order = t.sort_order
  FROM flow_tasks ft JOIN workflow_tasks t ON t.id = ft.task_id
 WHERE ft.id = i.flow_task_id;--> statement-breakpoint
ALTER TABLE "task_inbox" ALTER COLUMN "task_order" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "task_inbox_user_idx" ON "task_inbox" USING btree ("user_id","stage_rank","stage_name",(-"stage_order"),"assigned_at","flow_id",(-"task_order"),"flow_task_id");--> statement-breakpoint
CREATE INDEX "task_inbox_all_idx" ON "task_inbox" USING btree ("stage_rank","stage_name",(-"stage_order"),"assigned_at","flow_id",(-"task_order"),"flow_task_id","user_id");--> statement-breakpoint
-- The inbox functions of 0020, with the task's order.
CREATE OR REPLACE FUNCTION task_inbox_refresh(task_row_ids uuid[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM task_inbox WHERE flow_task_id = ANY (task_row_ids);
  INSERT INTO task_inbox (flow_task_id, user_id, flow_id, stage_name, stage_rank, stage_order, assigned_at, task_order)
  SELECT p.flow_task_id, p.user_id, p.flow_id, s.name, follow_up_stage_rank(s.name), s.sort_order, p.assigned_at,
         t.sort_order
    FROM pending_task_assignments p
    JOIN workflow_tasks t ON t.id = p.task_id
    JOIN workflow_stages s ON s.id = t.stage_id
   WHERE p.flow_task_id = ANY (task_row_ids)
  ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION task_inbox_rebuild() RETURNS void LANGUAGE sql AS $$
  DELETE FROM task_inbox;
  INSERT INTO task_inbox (flow_task_id, user_id, flow_id, stage_name, stage_rank, stage_order, assigned_at, task_order)
  SELECT p.flow_task_id, p.user_id, p.flow_id, s.name, follow_up_stage_rank(s.name), s.sort_order, p.assigned_at,
         t.sort_order
    FROM pending_task_assignments p
    JOIN workflow_tasks t ON t.id = p.task_id
    JOIN workflow_stages s ON s.id = t.stage_id;
$$;
--> statement-breakpoint
-- A task moved in its workflow (a re-shaped definition) re-sorts its inbox rows, as a stage does.
CREATE FUNCTION task_inbox_workflow_tasks_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM task_inbox_refresh(array(
    SELECT ft.id FROM old_rows o JOIN new_rows n ON n.id = o.id JOIN flow_tasks ft ON ft.task_id = n.id
     WHERE (o.stage_id, o.sort_order) IS DISTINCT FROM (n.stage_id, n.sort_order)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER task_inbox_workflow_tasks_updated AFTER UPDATE ON workflow_tasks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION task_inbox_workflow_tasks_updated();
