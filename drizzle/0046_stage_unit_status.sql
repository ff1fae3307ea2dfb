-- Decision 0068 (issue 62): the unit status view keyed on data, not on stage names. The view of 0027
-- matched the sale flow's stages by name ('Reparos', 'Promesa', 'Escrituración'); renaming a stage
-- in the definition would have changed every unit's status silently. Each stage now says what a unit
-- of the reservation shows while the sale flow stands there; the names are read once, here.
ALTER TABLE "workflow_stages" ADD COLUMN "unit_status" text;--> statement-breakpoint
ALTER TABLE "workflow_stages" ADD CONSTRAINT "workflow_stages_unit_status_check" CHECK ("workflow_stages"."unit_status" is null or "workflow_stages"."unit_status" in ('Reservada', 'Promesada', 'Escriturada'));--> statement-breakpoint
-- The sale flow's stages as 0027 read them: the reservation is 'Reservada'; the promise being or
-- signed and the deed pending, 'Promesada'; past the deed's tasks ('Reparos'), 'Escriturada'.
UPDATE workflow_stages s
   SET unit_status = CASE
         WHEN s.name = 'Reparos' THEN 'Escriturada'
         WHEN s.name IN ('Promesa', 'Escrituración') THEN 'Promesada'
         ELSE 'Reservada'
       END
  FROM workflows w
 WHERE w.id = s.workflow_id AND w.kind = 'sale';--> statement-breakpoint
-- A live reservation's units: a completed sale flow is 'Escriturada'; otherwise what its current
-- stage says; without a flow or a stage's word, 'Reservada' (as 0027).
CREATE OR REPLACE VIEW unit_statuses AS
SELECT u.id AS unit_id,
       u.project_id,
       ru.reservation_id,
       CASE
         WHEN ru.reservation_id IS NULL THEN
           CASE WHEN u.blocked_reason IS NULL THEN 'Disponible' ELSE 'Bloqueada' END
         WHEN f.status = 'completed' THEN 'Escriturada'
         ELSE coalesce(s.unit_status, 'Reservada')
       END AS status
  FROM units u
  LEFT JOIN reservation_units ru ON ru.unit_id = u.id AND ru.is_live
  LEFT JOIN flows f ON f.kind = 'sale' AND f.reservation_id = ru.reservation_id
  LEFT JOIN workflow_stages s ON s.id = f.current_stage_id;
--> statement-breakpoint
-- Issue 62: the Santiago day in one SQL home, as `santiagoDateOf` (shared/format) is TypeScript's;
-- `santiago-day.test.ts` holds the two equal across the clock changes. IMMUTABLE as the zone
-- conversion is, so the planner inlines it into the statements that call it.
CREATE FUNCTION santiago_date(instant timestamptz) RETURNS date
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT (instant AT TIME ZONE 'America/Santiago')::date $$;--> statement-breakpoint
-- The first instant of a Santiago calendar day (a range of days filtered on an indexed instant).
CREATE FUNCTION santiago_day_start(day date) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT day::timestamp AT TIME ZONE 'America/Santiago' $$;
