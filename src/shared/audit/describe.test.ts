import { describe, expect, it } from 'vitest';
import { auditSearchWords, describeAuditRow, formatAuditValue } from './describe';

describe('describeAuditRow', () => {
  it('tells an update field by field, its values as a user reads them', () => {
    const described = describeAuditRow({
      action: 'update',
      table: 'broker_commissions',
      before: { commission_amount: '120.00', payment_1_date: null },
      after: { commission_amount: '135.50', payment_1_date: '2027-03-12' },
      taskName: null,
      references: null,
    });
    expect(described.summary).toBe(
      'cambió Monto comisión de UF 120,00 a UF 135,50; agregó Fecha de pago 1 (12/03/2027) en la comisión del broker',
    );
    expect(described.changes).toEqual([
      { field: 'Monto comisión', before: 'UF 120,00', after: 'UF 135,50' },
      { field: 'Fecha de pago 1', before: null, after: '12/03/2027' },
    ]);
  });

  it('names the people and the task of an assignment, and the task of a status change', () => {
    const user = 'a3b5c7d9-0000-4000-8000-000000000001';
    expect(
      describeAuditRow({
        action: 'insert',
        table: 'flow_task_assignees',
        before: null,
        after: { flow_task_id: 'x', user_id: user, assigned_at: '2027-03-12T13:42:00+00:00' },
        taskName: 'COF PENDIENTE FIRMA',
        references: { [`user:${user}`]: 'Karla Mendoza' },
      }).summary,
    ).toBe('asignó a Karla Mendoza a la tarea COF PENDIENTE FIRMA');
    expect(
      describeAuditRow({
        action: 'update',
        table: 'flow_tasks',
        before: { status: 'pending' },
        after: { status: 'in_progress' },
        taskName: 'COF PENDIENTE FIRMA',
        references: null,
      }).summary,
    ).toBe('marcó la tarea COF PENDIENTE FIRMA como En Proceso');
  });

  describe('a task completed and what followed from it', () => {
    const ana = 'a3b5c7d9-0000-4000-8000-00000000000a';
    const karla = 'a3b5c7d9-0000-4000-8000-00000000000b';
    const task = 'f1f1f1f1-0000-4000-8000-000000000001';
    const next = 'f1f1f1f1-0000-4000-8000-000000000002';
    const at = '2027-03-12T13:42:00.000Z';
    const names = { [`user:${ana}`]: 'Ana Rojas', [`user:${karla}`]: 'Karla Mendoza' };
    const completed = { kind: 'taskCompleted', flowTaskId: task, taskName: 'COF PENDIENTE FIRMA' } as const;

    it('says the task was marked Completada, not that three fields changed from empty', () => {
      const row = {
        action: 'update',
        table: 'flow_tasks',
        // As the log holds a completion (the changed fields only).
        before: { status: 'pending', completed_at: null, completed_by: null },
        after: { status: 'completed', completed_at: '2027-03-12T13:42:00+00:00', completed_by: ana },
        taskName: 'COF PENDIENTE FIRMA',
        references: names,
        actorId: ana,
        at,
      } as const;
      const described = describeAuditRow(row);
      expect(described.summary).toBe('marcó la tarea COF PENDIENTE FIRMA como Completada');
      expect(described.summary).not.toContain('(vacío)');
      // The fields are still all there, for the Auditoría's export.
      expect(described.changes.map((change) => change.field)).toEqual([
        'Estado',
        'Término',
        'Completada por',
      ]);
      // An administrator's completion date, given by hand, is said.
      expect(
        describeAuditRow({
          ...row,
          after: { ...row.after, completed_at: '2027-03-10T12:00:00+00:00' },
        }).summary,
      ).toBe('marcó la tarea COF PENDIENTE FIRMA como Completada con término el 10/03/2027 09:00');
      // Reopened: its end and who completed it go with it.
      expect(
        describeAuditRow({
          ...row,
          before: { status: 'completed', completed_at: '2027-03-12T13:42:00+00:00', completed_by: ana },
          after: { status: 'pending', completed_at: null, completed_by: null },
        }).summary,
      ).toBe('marcó la tarea COF PENDIENTE FIRMA como Pendiente');
    });

    it('says the assignees left because the task was completed, and never that she removed herself', () => {
      const removal = (userId: string) => ({
        action: 'delete' as const,
        table: 'flow_task_assignees',
        before: { flow_task_id: task, user_id: userId, assigned_by: ana, assigned_at: at },
        after: null,
        taskName: 'COF PENDIENTE FIRMA',
        references: names,
        actorId: ana,
        at,
      });
      expect(describeAuditRow({ ...removal(ana), cause: completed }).summary).toBe(
        'dejó de ser responsable de la tarea COF PENDIENTE FIRMA al completarla',
      );
      expect(describeAuditRow({ ...removal(karla), cause: completed }).summary).toBe(
        'quitó a Karla Mendoza de la tarea COF PENDIENTE FIRMA al completarla',
      );
      // By hand: herself, or someone else.
      expect(describeAuditRow(removal(ana)).summary).toBe('se quitó de la tarea COF PENDIENTE FIRMA');
      expect(describeAuditRow(removal(karla)).summary).toBe(
        'quitó a Karla Mendoza de la tarea COF PENDIENTE FIRMA',
      );
    });

    it('says what the completion set going: the next tasks started, their default assignee, the flow moved on', () => {
      const because = {
        taskName: 'PENDIENTE VB PROMESA',
        actorId: ana,
        at,
        cause: completed,
        references: names,
      };
      expect(
        describeAuditRow({
          ...because,
          action: 'update',
          table: 'flow_tasks',
          before: { started_at: null },
          after: { started_at: '2027-03-12T13:42:00+00:00' },
        }).summary,
      ).toBe('dio inicio a la tarea PENDIENTE VB PROMESA al completar la tarea COF PENDIENTE FIRMA');
      expect(
        describeAuditRow({
          ...because,
          action: 'update',
          table: 'flow_tasks',
          before: { status: 'blocked', started_at: null },
          after: { status: 'pending', started_at: '2027-03-12T13:42:00+00:00' },
        }).summary,
      ).toBe('marcó la tarea PENDIENTE VB PROMESA como Pendiente al completar la tarea COF PENDIENTE FIRMA');
      expect(
        describeAuditRow({
          ...because,
          action: 'insert',
          table: 'flow_task_assignees',
          before: null,
          after: { flow_task_id: next, user_id: karla, assigned_by: ana, assigned_at: at },
        }).summary,
      ).toBe(
        'asignó a Karla Mendoza a la tarea PENDIENTE VB PROMESA al completar la tarea COF PENDIENTE FIRMA',
      );
      const stage = 'a1a1a1a1-0000-4000-8000-000000000001';
      expect(
        describeAuditRow({
          ...because,
          action: 'update',
          table: 'flows',
          before: { current_stage_id: 'a1a1a1a1-0000-4000-8000-000000000000' },
          after: { current_stage_id: stage },
          taskName: null,
          references: { [`stage:${stage}`]: 'Promesa' },
        }).summary,
      ).toBe('pasó el flujo a la etapa Promesa al completar la tarea COF PENDIENTE FIRMA');
      expect(
        describeAuditRow({
          ...because,
          action: 'update',
          table: 'flows',
          before: { status: 'in_progress', current_stage_id: stage, completed_at: null },
          after: { status: 'completed', current_stage_id: null, completed_at: at },
          taskName: null,
        }).summary,
      ).toBe('marcó el flujo como Completado al completar la tarea COF PENDIENTE FIRMA');
      // A reopened task gets its default assignee back.
      expect(
        describeAuditRow({
          ...because,
          action: 'insert',
          table: 'flow_task_assignees',
          before: null,
          after: { flow_task_id: task, user_id: karla, assigned_by: ana, assigned_at: at },
          taskName: 'COF PENDIENTE FIRMA',
          cause: { ...completed, kind: 'taskReopened' },
        }).summary,
      ).toBe('asignó a Karla Mendoza a la tarea COF PENDIENTE FIRMA al reabrirla');
    });

    it('says who assigned herself, and an approval rejected with its reason', () => {
      expect(
        describeAuditRow({
          action: 'insert',
          table: 'flow_task_assignees',
          before: null,
          after: { flow_task_id: task, user_id: ana, assigned_by: ana, assigned_at: at },
          taskName: 'COF PENDIENTE FIRMA',
          references: names,
          actorId: ana,
          at,
        }).summary,
      ).toBe('se asignó la tarea COF PENDIENTE FIRMA');
      expect(
        describeAuditRow({
          action: 'insert',
          table: 'flow_task_rejections',
          before: null,
          after: { flow_task_id: task, rejected_by: ana, rejected_at: at, reason: 'Falta la factura' },
          taskName: 'VB Gerente Comercial',
          references: names,
          actorId: ana,
          at,
        }).summary,
      ).toBe('rechazó la tarea VB Gerente Comercial: «Falta la factura»');
    });
  });

  it('says a value set where there was none, and one cleared, as a person would', () => {
    expect(
      describeAuditRow({
        action: 'update',
        table: 'clients',
        before: { phone: '111', email: null },
        after: { phone: null, email: 'rosa@correo.cl' },
        taskName: null,
        references: null,
      }).summary,
    ).toBe('borró Teléfono (era 111); agregó Correo electrónico (rosa@correo.cl) en el cliente');
  });

  it('says a password changed and never shows it; lists what a new row holds, not its empty fields', () => {
    expect(
      describeAuditRow({
        action: 'update',
        table: 'profiles',
        before: { password_hash: '[oculto]' },
        after: { password_hash: '[oculto]' },
        taskName: null,
        references: null,
      }),
    ).toMatchObject({
      summary: 'cambió Contraseña en el usuario',
      changes: [{ field: 'Contraseña', before: null, after: null }],
    });
    const created = describeAuditRow({
      action: 'insert',
      table: 'clients',
      before: null,
      after: {
        id: 'x',
        rut: '12345678-5',
        first_name: 'Rosa',
        last_name: 'Pino',
        phone: null,
        birth_date: '1990-01-02',
      },
      taskName: null,
      references: null,
    });
    expect(created.summary).toBe('creó el cliente');
    expect(created.changes.map((change) => change.field)).toEqual([
      'RUT',
      'Nombres',
      'Apellidos',
      'Fecha de nacimiento',
    ]);
    expect(created.changes[0]).toEqual({ field: 'RUT', before: null, after: '12.345.678-5' });
  });

  it('reads sign-ins with where from', () => {
    expect(
      describeAuditRow({
        action: 'sign_in',
        table: 'sessions',
        before: null,
        after: { ip: '10.0.0.1', user_agent: 'Firefox' },
        taskName: null,
        references: null,
      }),
    ).toEqual({
      subject: 'la sesión',
      summary: 'inició sesión',
      changes: [
        { field: 'Dirección IP', before: null, after: '10.0.0.1' },
        { field: 'Navegador', before: null, after: 'Firefox' },
      ],
    });
  });

  it('says a reference to a record deleted since is to a deleted record', () => {
    expect(formatAuditValue({ ref: 'user' }, 'b1', {})).toBe('registro eliminado');
    expect(formatAuditValue('fraction', '0.05')).toBe('5,00 %');
    expect(formatAuditValue('month', '2027-03-01')).toBe('marzo de 2027');
  });
});

describe('auditSearchWords', () => {
  it('reads amounts, RUTs and dates as the log stores them; folds accents and case', () => {
    expect(auditSearchWords('135,50')).toEqual(['135.50']);
    expect(auditSearchWords('1.234,5 Ñandú')).toEqual(['1234.5', 'nandu']);
    expect(auditSearchWords('12.345.678-5')).toEqual(['12345678-5']);
    expect(auditSearchWords('12/03/2027')).toEqual(['2027-03-12']);
    expect(auditSearchWords('  ')).toEqual([]);
    expect(auditSearchWords('135')).toEqual(['135']);
  });
});
