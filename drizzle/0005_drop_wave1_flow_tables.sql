DROP TABLE "commission_flow_tasks" CASCADE;--> statement-breakpoint
DROP TABLE "commission_flows" CASCADE;--> statement-breakpoint
DROP TABLE "commission_task_comments" CASCADE;--> statement-breakpoint
DROP TABLE "default_task_assignments" CASCADE;--> statement-breakpoint
DROP TABLE "payment_flow_stages" CASCADE;--> statement-breakpoint
DROP TABLE "payment_flow_task_prerequisites" CASCADE;--> statement-breakpoint
DROP TABLE "payment_flow_tasks" CASCADE;--> statement-breakpoint
DROP TABLE "payment_flows" CASCADE;--> statement-breakpoint
DROP TABLE "reservation_flow_tasks" CASCADE;--> statement-breakpoint
DROP TABLE "reservation_flows" CASCADE;--> statement-breakpoint
DROP TABLE "sale_flow_stages" CASCADE;--> statement-breakpoint
DROP TABLE "sale_flow_tasks" CASCADE;--> statement-breakpoint
DROP TABLE "sale_flows" CASCADE;--> statement-breakpoint
DROP TABLE "task_assignments" CASCADE;--> statement-breakpoint
DROP TABLE "task_comment_mentions" CASCADE;--> statement-breakpoint
DROP TABLE "task_comments" CASCADE;