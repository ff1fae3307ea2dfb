CREATE TABLE "price_list_items" (
	"price_list_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"effective_date" date NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	CONSTRAINT "price_list_items_price_list_id_unit_id_pk" PRIMARY KEY("price_list_id","unit_id"),
	CONSTRAINT "price_list_items_price_non_negative" CHECK ("price_list_items"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "price_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"effective_date" date NOT NULL,
	"price_count" integer NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_policies" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"reservation_amount" numeric(14, 2),
	"max_column_discount" numeric(9, 6),
	"max_additional_discount" numeric(9, 6),
	"max_other_discount" numeric(9, 6),
	"max_subsidy_fraction" numeric(9, 6),
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservation_units" (
	"reservation_id" uuid NOT NULL,
	"unit_id" uuid NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"price_list_id" uuid,
	"is_live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "reservation_units_reservation_id_unit_id_pk" PRIMARY KEY("reservation_id","unit_id")
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"number" text NOT NULL,
	"floor" integer,
	"building" text,
	"typology" text,
	"orientation" text,
	"usable_area" numeric(10, 2),
	"terrace_area" numeric(10, 2),
	"total_area" numeric(10, 2),
	"blocked_reason" text,
	"created_by" uuid,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "units_kind_check" CHECK (kind in ('apartment', 'parking', 'storage')),
	CONSTRAINT "units_number_not_blank" CHECK (btrim("units"."number") <> ''),
	CONSTRAINT "units_areas_non_negative" CHECK (coalesce("units"."usable_area", 0) >= 0 and coalesce("units"."terrace_area", 0) >= 0 and coalesce("units"."total_area", 0) >= 0),
	CONSTRAINT "units_blocked_reason_not_blank" CHECK ("units"."blocked_reason" is null or btrim("units"."blocked_reason") <> '')
);
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "policy_override_reason" text;--> statement-breakpoint
ALTER TABLE "price_list_items" ADD CONSTRAINT "price_list_items_price_list_id_price_lists_id_fk" FOREIGN KEY ("price_list_id") REFERENCES "public"."price_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_list_items" ADD CONSTRAINT "price_list_items_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_lists" ADD CONSTRAINT "price_lists_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_lists" ADD CONSTRAINT "price_lists_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_policies" ADD CONSTRAINT "project_policies_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_policies" ADD CONSTRAINT "project_policies_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservation_units" ADD CONSTRAINT "reservation_units_price_list_id_price_lists_id_fk" FOREIGN KEY ("price_list_id") REFERENCES "public"."price_lists"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_list_items_unit_date_idx" ON "price_list_items" USING btree ("unit_id","effective_date" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "price_lists_project_date_key" ON "price_lists" USING btree ("project_id","effective_date");--> statement-breakpoint
CREATE UNIQUE INDEX "reservation_units_live_key" ON "reservation_units" USING btree ("unit_id") WHERE "reservation_units"."is_live";--> statement-breakpoint
CREATE INDEX "reservation_units_unit_idx" ON "reservation_units" USING btree ("unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "units_project_kind_number_key" ON "units" USING btree ("project_id","kind",lower("number"));--> statement-breakpoint
CREATE INDEX "units_project_floor_idx" ON "units" USING btree ("project_id","floor","number");--> statement-breakpoint
CREATE INDEX "units_number_trgm_idx" ON "units" USING gin (lower("number") gin_trgm_ops);--> statement-breakpoint
-- Decision 0032. A reservation holds its units while it is live: a rescission (whoever writes it)
-- releases them in the same transaction, and the partial unique index above keeps one live
-- reservation per unit.
CREATE FUNCTION reservation_units_follow_rescission() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE reservation_units SET is_live = NOT NEW.is_rescinded
   WHERE reservation_id = NEW.id AND is_live = NEW.is_rescinded;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER reservations_units_liveness AFTER UPDATE OF is_rescinded ON reservations
  FOR EACH ROW WHEN (OLD.is_rescinded IS DISTINCT FROM NEW.is_rescinded)
  EXECUTE FUNCTION reservation_units_follow_rescission();
--> statement-breakpoint
-- The one definition of a unit's commercial status (DESIGN §15), read by the grid, the picker, the
-- dashboard and the search: never stored. Without a live reservation: 'Bloqueada' when an
-- administrator blocked it, else 'Disponible'. With one, the sale flow's stage says how far the sale
-- went: 'Reserva' → 'Reservada'; 'Promesa' and 'Escrituración' (the promise is being or was signed,
-- the deed is pending) → 'Promesada'; past the deed's tasks ('Reparos') or a completed flow →
-- 'Escriturada'. `shared/domain/stock.ts` names the same statuses (a test holds them equal).
CREATE VIEW unit_statuses AS
SELECT u.id AS unit_id,
       u.project_id,
       ru.reservation_id,
       CASE
         WHEN ru.reservation_id IS NULL THEN
           CASE WHEN u.blocked_reason IS NULL THEN 'Disponible' ELSE 'Bloqueada' END
         WHEN f.status = 'completed' OR s.name = 'Reparos' THEN 'Escriturada'
         WHEN s.name IN ('Promesa', 'Escrituración') THEN 'Promesada'
         ELSE 'Reservada'
       END AS status
  FROM units u
  LEFT JOIN reservation_units ru ON ru.unit_id = u.id AND ru.is_live
  LEFT JOIN flows f ON f.kind = 'sale' AND f.reservation_id = ru.reservation_id
  LEFT JOIN workflow_stages s ON s.id = f.current_stage_id;
--> statement-breakpoint
-- The audited tables (decision 0024): units, price lists and policies in their project's Historial,
-- a reservation's units in the reservation's; reservations again for their new column.
SELECT audit_install('units', '{id}', 'projects', 'r.project_id');
--> statement-breakpoint
SELECT audit_install('price_lists', '{id}', 'projects', 'r.project_id');
--> statement-breakpoint
SELECT audit_install('project_policies', '{project_id}', 'projects', 'r.project_id');
--> statement-breakpoint
SELECT audit_install('reservation_units', '{reservation_id,unit_id}', 'reservations', 'r.reservation_id');
--> statement-breakpoint
SELECT audit_install('reservations', '{id}', 'reservations', 'r.id');
