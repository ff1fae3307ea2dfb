-- Issue 34 (e-mail notices, decision 0035): the outbox written in the transaction of the change that
-- causes a message, the users' choices of notices, the holiday table of the business-day calendar
-- (seeded with Chile's official holidays of 2026 and 2027) and the once-a-day claim of scheduled jobs.
-- Not audited: mail_messages (it is itself the record of what was sent; Configuración → Correos shows
-- it), mail_preferences (a person's own choice, like a read mark), scheduled_runs (bookkeeping).
-- The holidays are configuration: audited like the privacy settings.
CREATE TABLE "holidays" (
	"day" date PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"to_address" text,
	"notices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"notice_count" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"collecting" boolean DEFAULT false NOT NULL,
	"send_after" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"claim_token" uuid,
	"subject" text,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_messages_kind_check" CHECK (kind in ('approval', 'mention', 'notices', 'paymentCompleted', 'digest', 'reminder', 'test')),
	CONSTRAINT "mail_messages_status_check" CHECK (status in ('pending', 'sent', 'failed', 'discarded'))
);
--> statement-breakpoint
CREATE TABLE "mail_preferences" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"assigned" boolean DEFAULT true NOT NULL,
	"approvals" boolean DEFAULT true NOT NULL,
	"mentions" boolean DEFAULT true NOT NULL,
	"rejections" boolean DEFAULT true NOT NULL,
	"reminders" boolean DEFAULT true NOT NULL,
	"digest" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_runs" (
	"job" text NOT NULL,
	"run_date" date NOT NULL,
	"ran_at" timestamp with time zone DEFAULT now() NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "scheduled_runs_job_run_date_pk" PRIMARY KEY("job","run_date")
);
--> statement-breakpoint
ALTER TABLE "holidays" ADD CONSTRAINT "holidays_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mail_preferences" ADD CONSTRAINT "mail_preferences_user_id_profiles_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_messages_due_idx" ON "mail_messages" USING btree ("next_attempt_at") WHERE "mail_messages"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_collecting_key" ON "mail_messages" USING btree ("user_id") WHERE "mail_messages"."collecting";--> statement-breakpoint
CREATE INDEX "mail_messages_created_idx" ON "mail_messages" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_messages_status_idx" ON "mail_messages" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mail_messages_user_idx" ON "mail_messages" USING btree ("user_id");--> statement-breakpoint
SELECT audit_install('holidays', '{day}', 'holidays', 'null::uuid');
--> statement-breakpoint
-- Chile's official holidays (Ley 2.977 and its amendments; the moved ones by Ley 19.668: San Pedro y
-- San Pablo and Encuentro de Dos Mundos to the Monday; Ley 20.983: Friday 17 September when the 18th
-- and 19th fall on a weekend; Ley 21.357: the winter solstice). Elections and one-off holidays are
-- declared by their own laws: an administrator adds them in Configuración.
INSERT INTO holidays (day, name) VALUES
  ('2026-01-01', 'Año Nuevo'),
  ('2026-04-03', 'Viernes Santo'),
  ('2026-04-04', 'Sábado Santo'),
  ('2026-05-01', 'Día Nacional del Trabajo'),
  ('2026-05-21', 'Día de las Glorias Navales'),
  ('2026-06-21', 'Día Nacional de los Pueblos Indígenas'),
  ('2026-06-29', 'San Pedro y San Pablo'),
  ('2026-07-16', 'Día de la Virgen del Carmen'),
  ('2026-08-15', 'Asunción de la Virgen'),
  ('2026-09-18', 'Independencia Nacional'),
  ('2026-09-19', 'Día de las Glorias del Ejército'),
  ('2026-10-12', 'Encuentro de Dos Mundos'),
  ('2026-10-31', 'Día de las Iglesias Evangélicas y Protestantes'),
  ('2026-11-01', 'Día de Todos los Santos'),
  ('2026-12-08', 'Inmaculada Concepción'),
  ('2026-12-25', 'Navidad'),
  ('2027-01-01', 'Año Nuevo'),
  ('2027-03-26', 'Viernes Santo'),
  ('2027-03-27', 'Sábado Santo'),
  ('2027-05-01', 'Día Nacional del Trabajo'),
  ('2027-05-21', 'Día de las Glorias Navales'),
  ('2027-06-21', 'Día Nacional de los Pueblos Indígenas'),
  ('2027-06-28', 'San Pedro y San Pablo'),
  ('2027-07-16', 'Día de la Virgen del Carmen'),
  ('2027-08-15', 'Asunción de la Virgen'),
  ('2027-09-17', 'Feriado adicional de Fiestas Patrias'),
  ('2027-09-18', 'Independencia Nacional'),
  ('2027-09-19', 'Día de las Glorias del Ejército'),
  ('2027-10-11', 'Encuentro de Dos Mundos'),
  ('2027-10-31', 'Día de las Iglesias Evangélicas y Protestantes'),
  ('2027-11-01', 'Día de Todos los Santos'),
  ('2027-12-08', 'Inmaculada Concepción'),
  ('2027-12-25', 'Navidad');
