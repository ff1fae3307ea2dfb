CREATE TABLE "document_chunks" (
	"version_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "document_chunks_version_id_seq_pk" PRIMARY KEY("version_id","seq")
);
--> statement-breakpoint
CREATE TABLE "document_type_requirements" (
	"document_type_id" uuid NOT NULL,
	"workflow_task_id" uuid NOT NULL,
	CONSTRAINT "document_type_requirements_document_type_id_workflow_task_id_pk" PRIMARY KEY("document_type_id","workflow_task_id")
);
--> statement-breakpoint
CREATE TABLE "document_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"is_restricted" boolean DEFAULT false NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "document_types_name_check" CHECK (length(trim("document_types"."name")) between 1 and 80)
);
--> statement-breakpoint
CREATE TABLE "document_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"document_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"is_previewable" boolean NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_versions_number_check" CHECK ("document_versions"."number" >= 1),
	CONSTRAINT "document_versions_size_check" CHECK ("document_versions"."byte_size" between 1 and 20971520)
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reservation_id" uuid NOT NULL,
	"document_type_id" uuid NOT NULL,
	"name" text NOT NULL,
	"current_version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "documents_name_check" CHECK (length(trim("documents"."name")) between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "document_chunks" ADD CONSTRAINT "document_chunks_version_id_document_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."document_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_type_requirements" ADD CONSTRAINT "document_type_requirements_document_type_id_document_types_id_fk" FOREIGN KEY ("document_type_id") REFERENCES "public"."document_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_type_requirements" ADD CONSTRAINT "document_type_requirements_workflow_task_id_workflow_tasks_id_fk" FOREIGN KEY ("workflow_task_id") REFERENCES "public"."workflow_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_types" ADD CONSTRAINT "document_types_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_types" ADD CONSTRAINT "document_types_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_versions" ADD CONSTRAINT "document_versions_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_reservation_id_reservations_id_fk" FOREIGN KEY ("reservation_id") REFERENCES "public"."reservations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_document_type_id_document_types_id_fk" FOREIGN KEY ("document_type_id") REFERENCES "public"."document_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_created_by_profiles_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_type_requirements_task_idx" ON "document_type_requirements" USING btree ("workflow_task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "document_types_name_key" ON "document_types" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "document_versions_number_key" ON "document_versions" USING btree ("document_id","number");--> statement-breakpoint
CREATE INDEX "documents_reservation_idx" ON "documents" USING btree ("reservation_id","created_at");--> statement-breakpoint
CREATE INDEX "documents_type_idx" ON "documents" USING btree ("document_type_id","reservation_id");--> statement-breakpoint
-- The chunks are PDFs, images and Office files, already compressed: stored out of line without
-- PostgreSQL's own compression (which would spend time to win nothing).
ALTER TABLE "document_chunks" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
--> statement-breakpoint
-- Audited (decision 0024): a document in its reservation's Historial (uploaded, renamed, a new
-- version, deleted), the types and what each task requires in Configuración's. The versions' facts
-- and the chunks' bytes are not: the document's row records each new version.
SELECT audit_install('documents', '{id}', 'reservations', 'r.reservation_id');
--> statement-breakpoint
SELECT audit_install('document_types', '{id}', 'document_types', 'r.id');
--> statement-breakpoint
SELECT audit_install('document_type_requirements', '{document_type_id,workflow_task_id}', 'document_types',
  'r.document_type_id');
--> statement-breakpoint
-- The papers of a Chilean sale (decision 0037). The broker's invoice and the purchase order are seen
-- by administrators and the payments team only. No task requires any of them until an administrator
-- says so in Configuración → Documentos: flows in progress are not stopped by an upgrade.
INSERT INTO document_types (name, is_restricted, sort_order) VALUES
  ('Comprobante de reserva', false, 1),
  ('Cédula de identidad', false, 2),
  ('Promesa firmada', false, 3),
  ('Escritura', false, 4),
  ('Orden de compra', true, 5),
  ('Factura del broker', true, 6),
  ('Otro', false, 7);
