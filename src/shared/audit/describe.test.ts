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
      'cambió Monto comisión de UF 120,00 a UF 135,50; cambió Fecha de pago 1 de (vacío) a 12/03/2027 en la comisión del broker',
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
        after: { status: 'completed' },
        taskName: 'COF PENDIENTE FIRMA',
        references: null,
      }).summary,
    ).toBe('cambió Estado de Pendiente a Completada en la tarea COF PENDIENTE FIRMA');
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
