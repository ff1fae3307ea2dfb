CREATE TABLE "broker_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_user_id" uuid NOT NULL,
	"broker_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"user_agent" text,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "broker_user_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "broker_user_tokens_purpose_check" CHECK ("broker_user_tokens"."purpose" in ('invitation', 'reset'))
);
--> statement-breakpoint
CREATE TABLE "broker_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"broker_id" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_messages" DROP CONSTRAINT "mail_messages_kind_check";--> statement-breakpoint
ALTER TABLE "broker_sessions" ADD CONSTRAINT "broker_sessions_broker_user_id_broker_users_id_fk" FOREIGN KEY ("broker_user_id") REFERENCES "public"."broker_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_sessions" ADD CONSTRAINT "broker_sessions_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_user_tokens" ADD CONSTRAINT "broker_user_tokens_broker_user_id_broker_users_id_fk" FOREIGN KEY ("broker_user_id") REFERENCES "public"."broker_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_users" ADD CONSTRAINT "broker_users_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broker_users" ADD CONSTRAINT "broker_users_invited_by_profiles_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broker_sessions_user_idx" ON "broker_sessions" USING btree ("broker_user_id");--> statement-breakpoint
CREATE INDEX "broker_user_tokens_user_idx" ON "broker_user_tokens" USING btree ("broker_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "broker_users_email_key" ON "broker_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "broker_users_broker_idx" ON "broker_users" USING btree ("broker_id","name","id");--> statement-breakpoint
CREATE INDEX "reservations_broker_portal_idx" ON "reservations" USING btree ("broker_id","reservation_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "mail_messages" ADD CONSTRAINT "mail_messages_kind_check" CHECK (kind in ('approval', 'mention', 'notices', 'paymentCompleted', 'bankAccount', 'digest', 'reminder', 'test', 'portalInvitation'));
--> statement-breakpoint
-- Decision 0069: the portal's accounts are audited under their broker (who invited, deactivated);
-- tokens and sessions are hashes, their sign-ins logged as events (as the staff's).
SELECT audit_install('broker_users', '{id}', 'brokers', 'r.broker_id', '{password_hash}');
