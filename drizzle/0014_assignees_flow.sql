-- The flow of each assignment, copied from its task row: a list shows a flow's assignees with one
-- read of flow_task_assignees_flow_idx instead of one primary-key probe per task row of the flow.
ALTER TABLE "flow_task_assignees" ADD COLUMN "flow_id" uuid;--> statement-breakpoint
UPDATE "flow_task_assignees" AS a SET "flow_id" = ft."flow_id" FROM "flow_tasks" ft WHERE ft."id" = a."flow_task_id";--> statement-breakpoint
ALTER TABLE "flow_task_assignees" ALTER COLUMN "flow_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "flow_task_assignees" ADD CONSTRAINT "flow_task_assignees_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flow_task_assignees_flow_idx" ON "flow_task_assignees" USING btree ("flow_id");
