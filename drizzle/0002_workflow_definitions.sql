-- The three workflow definitions of spec/workflows.md, seeded as data.
-- Sale tasks have no deadline (days_to_complete stays empty); payment tasks carry their days.

INSERT INTO sale_flows (name) VALUES ('Flujo de Venta Regular');
--> statement-breakpoint
INSERT INTO sale_flow_stages (flow_id, name, sort_order)
SELECT f.id, s.name, s.sort_order
FROM sale_flows f
CROSS JOIN (VALUES ('Reserva', 1), ('Promesa', 2), ('Escrituración', 3), ('Reparos', 4)) AS s(name, sort_order)
WHERE f.name = 'Flujo de Venta Regular';
--> statement-breakpoint
INSERT INTO sale_flow_tasks (stage_id, name, sort_order)
SELECT st.id, t.name, t.sort_order
FROM sale_flow_stages st
JOIN sale_flows f ON f.id = st.flow_id AND f.name = 'Flujo de Venta Regular'
JOIN (VALUES
  ('Reserva', 'COF PENDIENTE GENERACIÓN', 1),
  ('Reserva', 'COF PENDIENTE FIRMA', 2),
  ('Reserva', 'SOLICITUD VB COF PENDIENTE', 3),
  ('Promesa', 'PENDIENTE GENERACIÓN PROMESA', 1),
  ('Promesa', 'PENDIENTE ORIGEN DE FONDOS', 2),
  ('Promesa', 'PENDIENTE VB PROMESA', 3),
  ('Promesa', 'FIRMA PROMESA COORDINADA', 4),
  ('Promesa', 'PROMESA DE COMPRA ENTREGADA A OPERACIONES', 5),
  ('Promesa', 'PROMESA DE COMPRA ENTREGA A CLIENTE', 6),
  ('Escrituración', 'PENDIENTE CARTA PIE', 1),
  ('Escrituración', 'APROBACIÓN CHIP PENDIENTE', 2),
  ('Escrituración', 'PENDIENTE SET HIPOTECARIO', 3),
  ('Escrituración', 'GASTOS OPERACIONALES PENDIENTES', 4),
  ('Escrituración', 'PENDIENTE TASACIÓN', 5),
  ('Escrituración', 'A LA ESPERA DE TASACIÓN', 6),
  ('Escrituración', 'DPS PENDIENTE', 7),
  ('Escrituración', 'ESTUDIO DE TÍTULOS PENDIENTES', 8),
  ('Escrituración', 'PENDIENTE VISACIÓN', 9),
  ('Escrituración', 'BORRADOR EN CONFECCIÓN', 10),
  ('Escrituración', 'PENDIENTE FIRMA ESCRITURA', 11),
  ('Escrituración', 'SALDOS ESCRITURA PENDIENTES', 12),
  ('Escrituración', 'PENDIENTE ENTREGA', 13),
  ('Reparos', 'REPARO OPERACIONES', 1),
  ('Reparos', 'REPARO COMERCIAL', 2),
  ('Reparos', 'REPARO BANCO', 3)
) AS t(stage, name, sort_order) ON t.stage = st.name;
--> statement-breakpoint
INSERT INTO payment_flows (name) VALUES ('Flujo de Pago Principal'), ('Flujo de Segundo Pago');
--> statement-breakpoint
INSERT INTO payment_flow_stages (flow_id, name, sort_order)
SELECT f.id, s.name, s.sort_order
FROM payment_flows f
JOIN (VALUES
  ('Flujo de Pago Principal', 'Solicitud Liquidación', 1),
  ('Flujo de Pago Principal', 'Aprobación Jefe Inversiones', 2),
  ('Flujo de Pago Principal', 'Aprobación Gerente Comercial', 3),
  ('Flujo de Pago Principal', 'Aprobación Operaciones', 4),
  ('Flujo de Pago Principal', 'Aprobación Control de Gestión', 5),
  ('Flujo de Pago Principal', 'Orden de Compra', 6),
  ('Flujo de Pago Principal', 'Facturación', 7),
  ('Flujo de Pago Principal', 'Pago', 8),
  ('Flujo de Segundo Pago', 'Facturación', 1),
  ('Flujo de Segundo Pago', 'Pago', 2)
) AS s(flow, name, sort_order) ON s.flow = f.name;
--> statement-breakpoint
INSERT INTO payment_flow_tasks (stage_id, name, sort_order, days_to_complete)
SELECT st.id, t.name, t.sort_order, t.days
FROM payment_flow_stages st
JOIN payment_flows f ON f.id = st.flow_id
JOIN (VALUES
  ('Flujo de Pago Principal', 'Solicitud Liquidación', 'Solicitud Liquidación', 1, 1),
  ('Flujo de Pago Principal', 'Aprobación Jefe Inversiones', 'Solicitud a Jefe Inversiones', 1, 1),
  ('Flujo de Pago Principal', 'Aprobación Jefe Inversiones', 'VB Jefe Inversiones', 2, 2),
  ('Flujo de Pago Principal', 'Aprobación Gerente Comercial', 'Solicitud Gerente Comercial', 1, 1),
  ('Flujo de Pago Principal', 'Aprobación Gerente Comercial', 'VB Gerente Comercial', 2, 2),
  ('Flujo de Pago Principal', 'Aprobación Operaciones', 'Solicitud Operaciones', 1, 1),
  ('Flujo de Pago Principal', 'Aprobación Operaciones', 'VB Operaciones', 2, 2),
  ('Flujo de Pago Principal', 'Aprobación Control de Gestión', 'Solicitud Control de Gestión', 1, 1),
  ('Flujo de Pago Principal', 'Aprobación Control de Gestión', 'VB Control de Gestión', 2, 2),
  ('Flujo de Pago Principal', 'Orden de Compra', 'Generación de OC', 1, 2),
  ('Flujo de Pago Principal', 'Orden de Compra', 'VB OC Gerencia Comercial', 2, 2),
  ('Flujo de Pago Principal', 'Orden de Compra', 'VB OC Gerencia General', 3, 2),
  ('Flujo de Pago Principal', 'Orden de Compra', 'Envío OC Broker', 4, 1),
  ('Flujo de Pago Principal', 'Facturación', 'Recepción Factura Broker', 1, 3),
  ('Flujo de Pago Principal', 'Facturación', 'Generación de Entrada', 2, 2),
  ('Flujo de Pago Principal', 'Facturación', 'Aprobación de Entrada', 3, 2),
  ('Flujo de Pago Principal', 'Pago', 'Notificación a Finanzas', 1, 1),
  ('Flujo de Pago Principal', 'Pago', 'Fecha de Pago', 2, 2),
  ('Flujo de Segundo Pago', 'Facturación', 'Generación de Entrada 2', 1, 2),
  ('Flujo de Segundo Pago', 'Facturación', 'Aprobación de Entrada 2', 2, 2),
  ('Flujo de Segundo Pago', 'Facturación', 'Envío Entrada Broker 2', 3, 1),
  ('Flujo de Segundo Pago', 'Facturación', 'Recepción Factura 2 Broker', 4, 3),
  ('Flujo de Segundo Pago', 'Pago', 'Notificación a Finanzas 2', 1, 1),
  ('Flujo de Segundo Pago', 'Pago', 'Fecha de Pago 2', 2, 2)
) AS t(flow, stage, name, sort_order, days) ON t.flow = f.name AND t.stage = st.name;
--> statement-breakpoint
-- Every payment task depends on the task right before it in flow order (stage order, then task order).
INSERT INTO payment_flow_task_prerequisites (task_id, prerequisite_task_id)
SELECT ordered.id, ordered.previous_id
FROM (
  SELECT t.id,
         lag(t.id) OVER (PARTITION BY st.flow_id ORDER BY st.sort_order, t.sort_order) AS previous_id
  FROM payment_flow_tasks t
  JOIN payment_flow_stages st ON st.id = t.stage_id
) AS ordered
WHERE ordered.previous_id IS NOT NULL;
--> statement-breakpoint
-- The commercial and operations approvals run side by side in the main flow:
-- 'Solicitud Operaciones' waits for 'VB Jefe Inversiones' (not 'VB Gerente Comercial') ...
UPDATE payment_flow_task_prerequisites p
SET prerequisite_task_id = jefe.id
FROM payment_flow_tasks ops, payment_flow_tasks jefe, payment_flow_stages ops_stage, payment_flow_stages jefe_stage, payment_flows f
WHERE p.task_id = ops.id
  AND ops.name = 'Solicitud Operaciones' AND ops.stage_id = ops_stage.id AND ops_stage.flow_id = f.id
  AND jefe.name = 'VB Jefe Inversiones' AND jefe.stage_id = jefe_stage.id AND jefe_stage.flow_id = f.id
  AND f.name = 'Flujo de Pago Principal';
--> statement-breakpoint
-- ... and 'Generación de OC' waits for both 'VB Gerente Comercial' and 'VB Control de Gestión'.
INSERT INTO payment_flow_task_prerequisites (task_id, prerequisite_task_id)
SELECT oc.id, gc.id
FROM payment_flow_tasks oc
JOIN payment_flow_stages oc_stage ON oc_stage.id = oc.stage_id
JOIN payment_flows f ON f.id = oc_stage.flow_id AND f.name = 'Flujo de Pago Principal'
JOIN payment_flow_stages gc_stage ON gc_stage.flow_id = f.id
JOIN payment_flow_tasks gc ON gc.stage_id = gc_stage.id AND gc.name = 'VB Gerente Comercial'
WHERE oc.name = 'Generación de OC';
