import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { IMPORT_BODY_TYPE } from '../features/imports/imports.routes';
import { loginAs, useTestApp } from '../test/app';
import { DEFAULT_HEAVY_LIMITS, HeavyJobs } from './heavy-jobs';

describe('the heavy-jobs limiter (issue 52, decision 0050)', () => {
  const ctx = useTestApp();

  async function auditRows(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(
      ctx.db,
      sql`select count(*)::int as count from audit_log`,
    );
    return row!.count;
  }

  it('lets an export through and gives its place back when the file is sent', async () => {
    const admin = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    for (let i = 0; i < DEFAULT_HEAVY_LIMITS.perUser.export + 1; i++) {
      const csv = await admin.get('/api/audit/export?format=csv');
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    }
    expect(ctx.app.heavyJobs.countOf(admin.user!.id, 'export')).toBe(0);
    expect(ctx.app.heavyJobs.totals()).toEqual({ downloads: 0, uploads: 0 });
  });

  it('refuses a user’s export beyond their limit with a polite 429 and Retry-After, records nothing, and lets others through', async () => {
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const pedro = await loginAs(ctx, { email: 'pedro@inmoflujo.test' });
    const held = [
      ctx.app.heavyJobs.acquire(camila.user!.id, 'export'),
      ctx.app.heavyJobs.acquire(camila.user!.id, 'export'),
    ];
    const before = await auditRows();
    const refused = await camila.get('/api/audit/export?format=csv');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({
      error: {
        code: 'HEAVY_EXPORT_BUSY',
        message: 'Ya hay una exportación en curso; intente en un momento.',
      },
    });
    // Nothing was read nor recorded (an export is recorded in the audit log once sent).
    expect(await auditRows()).toBe(before);
    expect(ctx.app.heavyJobs.countOf(camila.user!.id, 'export')).toBe(2);

    // Another user is not held back by Camila's exports.
    expect((await pedro.get('/api/audit/export?format=csv')).statusCode).toBe(200);
    // Nor is Camila's own PDF, another kind (refused only as a missing reservation).
    expect((await camila.get(`/api/reservations/${randomUUID()}/receipt.pdf`)).statusCode).toBe(404);

    for (const release of held) release();
    expect((await camila.get('/api/audit/export?format=xlsx')).statusCode).toBe(200);
  });

  it('refuses every user once the instance runs its limit of downloads at once', async () => {
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const held = Array.from({ length: DEFAULT_HEAVY_LIMITS.downloads }, () =>
      ctx.app.heavyJobs.acquire(randomUUID(), 'export'),
    );
    const refused = await camila.get('/api/audit/export?format=csv');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error).toEqual({
      code: 'HEAVY_SERVER_BUSY',
      message: 'El servidor está atendiendo muchas descargas y subidas a la vez; intente en un momento.',
    });
    const pdf = await camila.get(`/api/reservations/${randomUUID()}/commission-statement.pdf`);
    expect(pdf.json().error.code).toBe('HEAVY_SERVER_BUSY');
    // Light requests are never counted.
    expect((await camila.get('/api/audit/users')).statusCode).toBe(200);
    held[0]!();
    expect((await camila.get('/api/audit/export?format=csv')).statusCode).toBe(200);
    for (const release of held) release();
  });

  it('says what is running, per kind: errors workbook, PDF, backup', async () => {
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const id = camila.user!.id;
    const held = [
      ctx.app.heavyJobs.acquire(id, 'errors'),
      ctx.app.heavyJobs.acquire(id, 'pdf'),
      ctx.app.heavyJobs.acquire(id, 'pdf'),
      ctx.app.heavyJobs.acquire(id, 'backup'),
    ];
    const cases: [
      Promise<{ statusCode: number; json(): { error: { code: string; message: string } } }>,
      string,
    ][] = [
      [
        camila.get(`/api/imports/runs/${randomUUID()}/errors`),
        'Ya se está preparando una planilla con errores; intente en un momento.',
      ],
      [
        camila.get(`/api/reservations/${randomUUID()}/receipt.pdf`),
        'Ya se está generando un PDF; intente en un momento.',
      ],
      [camila.post('/api/backups'), 'Ya hay un respaldo en curso; intente en un momento.'],
    ];
    for (const [answer, message] of cases) {
      const response = await answer;
      expect(response.statusCode).toBe(429);
      expect(response.json().error.message).toBe(message);
    }
    for (const release of held) release();
  });

  it('refuses a user’s upload beyond their limit before reading its body; JSON requests are not uploads', async () => {
    const camila = await loginAs(ctx, { email: 'camila@inmoflujo.test' });
    const id = camila.user!.id;
    const held = Array.from({ length: DEFAULT_HEAVY_LIMITS.perUser.upload }, () =>
      ctx.app.heavyJobs.acquire(id, 'upload'),
    );
    const before = await auditRows();
    const refused = await camila.post('/api/imports/files?kind=clients&name=clientes.csv', 'RUT;Nombre\r\n', {
      'content-type': IMPORT_BODY_TYPE,
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error).toEqual({
      code: 'HEAVY_UPLOAD_BUSY',
      message: 'Ya hay archivos subiéndose desde su cuenta; espere que terminen e intente nuevamente.',
    });
    expect(await auditRows()).toBe(before);
    const json = await camila.post('/api/clients', {});
    expect(json.statusCode).not.toBe(429);
    for (const release of held) release();
    const accepted = await camila.post(
      '/api/imports/files?kind=clients&name=clientes.csv',
      'RUT;Nombre\r\n',
      {
        'content-type': IMPORT_BODY_TYPE,
      },
    );
    expect(accepted.statusCode, accepted.body).not.toBe(429);
    expect(ctx.app.heavyJobs.totals()).toEqual({ downloads: 0, uploads: 0 });
  });
});

describe('HeavyJobs', () => {
  it('counts per user and kind and in all, and gives a place back once however often released', () => {
    const jobs = new HeavyJobs({
      perUser: { export: 1, errors: 1, pdf: 1, backup: 1, upload: 1 },
      downloads: 2,
      uploads: 1,
      retryAfterSeconds: 1,
    });
    const release = jobs.acquire('a', 'export');
    expect(() => jobs.acquire('a', 'export')).toThrow('Ya hay una exportación en curso');
    jobs.acquire('a', 'pdf');
    expect(() => jobs.acquire('b', 'export')).toThrow('muchas descargas y subidas a la vez');
    jobs.acquire('b', 'upload');
    expect(() => jobs.acquire('b', 'upload')).toThrow('Ya hay archivos subiéndose');
    expect(() => jobs.acquire('c', 'upload')).toThrow('muchas descargas y subidas a la vez');
    release();
    release();
    expect(jobs.totals()).toEqual({ downloads: 1, uploads: 1 });
    expect(jobs.countOf('a', 'export')).toBe(0);
    jobs.acquire('b', 'export');
    expect(() => jobs.acquire('c', 'export')).toThrow('muchas descargas y subidas a la vez');
  });
});
