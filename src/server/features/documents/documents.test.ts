import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { queryRows } from '../../db/client';
import { Agent, errorOf, loginAs, TEST_ORIGIN, type TestContext, useTestApp } from '../../test/app';
import { createBroker, createReservation } from '../../test/builders';
import { createCommission, createSaleFlow } from '../../test/flow-builders';

const OCTET = { 'content-type': 'application/octet-stream' };

/** A small, well-formed PDF (a header, one empty page, a cross-reference table, the end marker). */
function pdf(text = 'Promesa'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n` +
      `3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\n% ${text}\n` +
      'trailer <</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
}

/**
 * A minimal OLE2 container (Word and Excel 97-2003, also installers): the header, one directory
 * sector with the root entry (its class id) and one stream entry named `stream`.
 */
function ole2({ classId, stream }: { classId: number; stream: string }): Buffer {
  const file = Buffer.alloc(512 * 3);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(file, 0);
  file.writeUInt16LE(0x3e, 0x18); // minor version
  file.writeUInt16LE(3, 0x1a); // major version: 512-byte sectors
  file.writeUInt16LE(0xfffe, 0x1c); // little-endian
  file.writeUInt16LE(9, 0x1e); // sector shift: 2^9
  file.writeUInt16LE(6, 0x20); // mini sector shift
  file.writeInt32LE(1, 0x2c); // one FAT sector
  file.writeInt32LE(0, 0x30); // the directory starts at sector 0
  file.writeInt32LE(1, 0x4c); // the FAT is sector 1
  const entry = (index: number, name: string, type: number) => {
    const offset = 512 + index * 128;
    file.write(name, offset, 'utf16le');
    file.writeUInt16LE((name.length + 1) * 2, offset + 0x40);
    file.writeUInt8(type, offset + 0x42);
  };
  entry(0, 'Root Entry', 5);
  file.writeUInt32LE(classId, 512 + 0x50);
  if (classId !== 0) Buffer.from('00000000c000000000000046', 'hex').copy(file, 512 + 0x54);
  entry(1, stream, 2);
  return file;
}

async function png(): Promise<Buffer> {
  return sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
}

async function typeId(ctx: TestContext, name: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    ctx.db,
    sql`select id from document_types where name = ${name}`,
  );
  return row!.id;
}

async function storedCounts(ctx: TestContext) {
  const [row] = await queryRows<{ documents: number; versions: number; chunks: number }>(
    ctx.db,
    sql`select (select count(*)::int from documents) as documents,
               (select count(*)::int from document_versions) as versions,
               (select count(*)::int from document_chunks) as chunks`,
  );
  return row!;
}

function uploadUrl(reservationId: string, type: string, fileName: string) {
  return `/api/reservations/${reservationId}/documents?typeId=${type}&fileName=${encodeURIComponent(fileName)}`;
}

async function upload(
  ctx: TestContext,
  agent: Agent,
  reservationId: string,
  typeName: string,
  fileName: string,
  bytes: Buffer,
) {
  return agent.post(uploadUrl(reservationId, await typeId(ctx, typeName), fileName), bytes, OCTET);
}

describe('documents of a reservation', () => {
  const ctx = useTestApp();

  it('stores a PDF and an image, lists them with who and when, and downloads them byte-identical', async () => {
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const reservation = await createReservation(ctx.db);
    const bytes = pdf();
    const created = await upload(ctx, admin, reservation.id, 'Promesa firmada', 'Promesa Pérez.pdf', bytes);
    expect(created.statusCode).toBe(201);
    const { document } = created.json();
    expect(document).toMatchObject({
      name: 'Promesa Pérez.pdf',
      typeName: 'Promesa firmada',
      current: {
        number: 1,
        contentType: 'application/pdf',
        byteSize: bytes.length,
        isPreviewable: true,
        createdByName: 'Camila Fuentes',
      },
    });
    const image = await png();
    expect(
      (await upload(ctx, admin, reservation.id, 'Cédula de identidad', 'cedula.png', image)).statusCode,
    ).toBe(201);

    const list = (await admin.get(`/api/reservations/${reservation.id}/documents`)).json();
    expect(list.documents.map((row: { name: string }) => row.name)).toEqual([
      'cedula.png',
      'Promesa Pérez.pdf',
    ]);
    expect(list.canDelete).toBe(true);

    const download = await admin.get(`/api/reservations/${reservation.id}/documents/${document.id}/download`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(bytes)).toBe(true);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="Promesa Perez.pdf"; filename*=UTF-8''Promesa%20P%C3%A9rez.pdf`,
    );
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toContain('sandbox');

    const preview = await admin.get(`/api/reservations/${reservation.id}/documents/${document.id}/preview`);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('application/pdf');
    expect(preview.headers['content-disposition']).toMatch(/^inline; /);
    expect(preview.headers['content-security-policy']).toMatch(/^sandbox;/);
    expect(preview.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(preview.rawPayload.equals(bytes)).toBe(true);
  });

  it('keeps a 20 MB file in chunks and streams it back whole', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const big = Buffer.concat([
      pdf(),
      Buffer.alloc(20 * 1024 * 1024 - pdf().length - 10, 0x20),
      Buffer.from('\n%%EOF\n   '),
    ]);
    expect(big.length).toBe(20 * 1024 * 1024);
    const created = await upload(ctx, admin, reservation.id, 'Escritura', 'escritura.pdf', big);
    expect(created.statusCode).toBe(201);
    expect((await storedCounts(ctx)).chunks).toBe(40);
    const download = await admin.get(
      `/api/reservations/${reservation.id}/documents/${created.json().document.id}/download`,
    );
    expect(download.rawPayload.equals(big)).toBe(true);
  });

  it('refuses 21 MB with 413 and stores nothing, whether the size is declared or counted', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const huge = Buffer.concat([pdf(), Buffer.alloc(21 * 1024 * 1024)]);
    const declared = await upload(ctx, admin, reservation.id, 'Escritura', 'grande.pdf', huge);
    expect(declared.statusCode).toBe(413);
    expect(errorOf(declared).message).toBe(
      'El archivo supera el máximo de 20 MB: no se guardó. Reduzca su tamaño o divídalo.',
    );
    // Without a Content-Length (a chunked body): counted as it arrives, refused past 20 MB.
    const pieces = Array.from({ length: 21 }, () => Buffer.alloc(1024 * 1024, 0x20));
    const counted = await admin.post(
      uploadUrl(reservation.id, await typeId(ctx, 'Escritura'), 'grande.pdf'),
      Readable.from([pdf(), ...pieces]),
      OCTET,
    );
    expect(counted.statusCode).toBe(413);
    expect(await storedCounts(ctx)).toEqual({ documents: 0, versions: 0, chunks: 0 });
  });

  it('judges the type by the bytes: HTML named .pdf and an executable refused, Excel taken for download only', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const html = Buffer.from(
      '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
    );
    const refusedHtml = await upload(ctx, admin, reservation.id, 'Promesa firmada', 'promesa.pdf', html);
    expect(refusedHtml.statusCode).toBe(400);
    expect(errorOf(refusedHtml).code).toBe('DOCUMENT_TYPE_REFUSED');
    const script = Buffer.from('#!/bin/sh\nrm -rf /\n');
    expect((await upload(ctx, admin, reservation.id, 'Otro', 'script.pdf', script)).statusCode).toBe(400);
    const exe = Buffer.concat([
      Buffer.from('MZ'),
      Buffer.alloc(62),
      Buffer.from('PE\0\0'),
      Buffer.alloc(200),
    ]);
    exe.writeUInt32LE(64, 60);
    const refusedExe = await upload(ctx, admin, reservation.id, 'Otro', 'factura.pdf', exe);
    expect(refusedExe.statusCode).toBe(400);
    expect(errorOf(refusedExe).code).toBe('DOCUMENT_TYPE_REFUSED');
    expect((await upload(ctx, admin, reservation.id, 'Otro', 'vacío.pdf', Buffer.alloc(0))).statusCode).toBe(
      400,
    );
    expect((await storedCounts(ctx)).documents).toBe(0);

    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Hoja').addRow(['Saldo', 1200]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const sheet = await upload(ctx, admin, reservation.id, 'Otro', 'saldos.xlsx', xlsx);
    expect(sheet.statusCode).toBe(201);
    expect(sheet.json().document.current).toMatchObject({
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      isPreviewable: false,
    });
    const preview = await admin.get(
      `/api/reservations/${reservation.id}/documents/${sheet.json().document.id}/preview`,
    );
    expect(preview.statusCode).toBe(409);
  });

  it('takes Word and Excel 97-2003 by what their container holds, not by the name alone', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const word = ole2({ classId: 0x00020906, stream: 'WordDocument' });
    const taken = await upload(ctx, admin, reservation.id, 'Otro', 'Carta.doc', word);
    expect(taken.statusCode).toBe(201);
    expect(taken.json().document.current).toMatchObject({
      contentType: 'application/msword',
      isPreviewable: false,
    });
    // Written without a class id (by a library, not Excel): the workbook stream says it.
    const sheet = await upload(
      ctx,
      admin,
      reservation.id,
      'Otro',
      'Saldos.XLS',
      ole2({ classId: 0, stream: 'Workbook' }),
    );
    expect(sheet.statusCode).toBe(201);
    expect(sheet.json().document.current.contentType).toBe('application/vnd.ms-excel');

    // An installer (its own class id) named .doc, a Word file named .xls, a container of nothing known.
    const installer = ole2({ classId: 0x000c1084, stream: '\u4840\u3f3f' });
    for (const [fileName, bytes] of [
      ['Contrato.doc', installer],
      ['Planilla.xls', word],
      ['Otro.doc', ole2({ classId: 0, stream: 'Contents' })],
    ] as const) {
      const refused = await upload(ctx, admin, reservation.id, 'Otro', fileName, bytes);
      expect(refused.statusCode, fileName).toBe(400);
      expect(errorOf(refused).code).toBe('DOCUMENT_TYPE_REFUSED');
    }
    expect((await storedCounts(ctx)).documents).toBe(2);
  });

  it('keeps an encrypted or damaged PDF only as a download', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const encrypted = Buffer.from(
      pdf().toString('latin1').replace('trailer <<', 'trailer <</Encrypt 9 0 R '),
      'latin1',
    );
    const damaged = pdf().subarray(0, 60);
    for (const [name, bytes] of [
      ['cifrado.pdf', encrypted],
      ['dañado.pdf', damaged],
    ] as const) {
      const created = await upload(ctx, admin, reservation.id, 'Otro', name, bytes);
      expect(created.statusCode).toBe(201);
      expect(created.json().document.current.isPreviewable).toBe(false);
      const base = `/api/reservations/${reservation.id}/documents/${created.json().document.id}`;
      expect((await admin.get(`${base}/preview`)).statusCode).toBe(409);
      const download = await admin.get(`${base}/download`);
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toMatch(/^attachment; /);
      expect(download.rawPayload.equals(bytes)).toBe(true);
    }
  });

  it('answers 403 on list, upload, preview and download of a restricted type to those who may not see it', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const reservation = await createReservation(ctx.db);
    const invoice = await upload(
      ctx,
      admin,
      reservation.id,
      'Factura del broker',
      'factura.pdf',
      pdf('Factura'),
    );
    const promise = await upload(ctx, kam, reservation.id, 'Promesa firmada', 'promesa.pdf', pdf());
    expect(promise.statusCode).toBe(201);
    const invoiceType = await typeId(ctx, 'Factura del broker');
    const base = `/api/reservations/${reservation.id}/documents`;
    const invoiceId = invoice.json().document.id;

    const denied = [
      await kam.get(`${base}?typeId=${invoiceType}`),
      await kam.get(`${base}/${invoiceId}/preview`),
      await kam.get(`${base}/${invoiceId}/download`),
      await kam.get(`${base}/${invoiceId}/versions`),
      await upload(ctx, kam, reservation.id, 'Factura del broker', 'otra.pdf', pdf()),
    ];
    for (const response of denied) {
      expect(response.statusCode).toBe(403);
      expect(errorOf(response).message).toBe(
        'Los documentos de tipo «Factura del broker» solo los ven administradores y el equipo de pagos.',
      );
    }
    const kamList = (await kam.get(base)).json();
    expect(kamList.documents.map((row: { name: string }) => row.name)).toEqual(['promesa.pdf']);
    expect(kamList.types.map((type: { name: string }) => type.name)).not.toContain('Factura del broker');
    expect(kamList.canDelete).toBe(false);

    // The payments team sees it, as administrators do.
    expect((await payments.get(`${base}?typeId=${invoiceType}`)).json().documents).toHaveLength(1);
    expect((await payments.get(`${base}/${invoiceId}/preview`)).statusCode).toBe(200);
    expect((await payments.get(`${base}/${invoiceId}/download`)).rawPayload.equals(pdf('Factura'))).toBe(
      true,
    );
    expect((await admin.get(base)).json().documents).toHaveLength(2);
  });

  it('replaces a document with a new version, keeping and listing the old ones; renames at the version read', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM', firstName: 'Karla', lastName: 'Mendoza' });
    const reservation = await createReservation(ctx.db);
    const first = pdf('primera');
    const created = (await upload(ctx, admin, reservation.id, 'Promesa firmada', 'promesa.pdf', first)).json()
      .document;
    const base = `/api/reservations/${reservation.id}/documents/${created.id}`;
    const second = await png();
    const replaced = await kam.post(`${base}/versions?fileName=promesa-firmada.png&version=1`, second, OCTET);
    expect(replaced.statusCode).toBe(201);
    expect(replaced.json().document).toMatchObject({
      name: 'promesa.pdf',
      version: 2,
      current: {
        number: 2,
        fileName: 'promesa-firmada.png',
        contentType: 'image/png',
        createdByName: 'Karla Mendoza',
      },
    });
    // A replacement based on what is no longer the current version: refused, nothing stored.
    const stale = await kam.post(`${base}/versions?fileName=otra.pdf&version=1`, pdf(), OCTET);
    expect(stale.statusCode).toBe(409);
    const versions = (await admin.get(`${base}/versions`)).json().versions;
    expect(versions.map((v: { number: number; fileName: string }) => [v.number, v.fileName])).toEqual([
      [2, 'promesa-firmada.png'],
      [1, 'promesa.pdf'],
    ]);
    expect((await admin.get(`${base}/download`)).rawPayload.equals(second)).toBe(true);
    expect((await admin.get(`${base}/download?version=1`)).rawPayload.equals(first)).toBe(true);

    const renamed = await kam.patch(base, { name: 'Promesa firmada ante notario', version: 2 });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().document).toMatchObject({ name: 'Promesa firmada ante notario', version: 3 });
    expect((await kam.patch(base, { name: 'Otra', version: 2 })).statusCode).toBe(409);
    const blank = await kam.patch(base, { name: '  ', version: 3 });
    expect(blank.statusCode).toBe(400);
  });

  it('lets only administrators delete a document, and the audit trail records who deleted what', async () => {
    const admin = await loginAs(ctx, { firstName: 'Camila', lastName: 'Fuentes' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const reservation = await createReservation(ctx.db);
    const created = (
      await upload(ctx, kam, reservation.id, 'Cédula de identidad', 'cedula.pdf', pdf())
    ).json().document;
    const url = `/api/reservations/${reservation.id}/documents/${created.id}`;
    const refused = await kam.delete(url);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe('Solo un administrador puede eliminar documentos.');
    expect((await storedCounts(ctx)).documents).toBe(1);

    expect((await admin.delete(url)).statusCode).toBe(204);
    expect(await storedCounts(ctx)).toEqual({ documents: 0, versions: 0, chunks: 0 });
    const log = await queryRows<{
      action: string;
      actor_id: string;
      root_id: string;
      before: { name: string };
    }>(
      ctx.db,
      sql`select action, actor_id, root_id, before from audit_log where table_name = 'documents' order by id`,
    );
    expect(log.map((row) => row.action)).toEqual(['insert', 'delete']);
    expect(log[1]).toMatchObject({
      actor_id: admin.user!.id,
      root_id: reservation.id,
      before: { name: 'cedula.pdf' },
    });
    const history = (await admin.get(`/api/audit/history/reservations/${reservation.id}`)).json();
    expect(JSON.stringify(history)).toContain('cedula.pdf');
  });

  it('stores nothing and leaves no spooled file when the browser goes away mid-upload', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const spoolDir = join(tmpdir(), 'inmoflujo-uploads');
    const spooled = async () => new Set(await readdir(spoolDir).catch(() => [] as string[]));
    // A server listening on a socket, so the client can really hang up halfway through the body.
    const server = await buildApp({
      db: ctx.appDb,
      serveClient: false,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    try {
      await server.listen({ host: '127.0.0.1', port: 0 });
      const { port } = server.server.address() as AddressInfo;
      const before = await spooled();
      const request = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: uploadUrl(reservation.id, await typeId(ctx, 'Otro'), 'cortado.pdf'),
        headers: {
          ...OCTET,
          'content-length': String(4 * 1024 * 1024),
          origin: TEST_ORIGIN,
          cookie: admin.cookie!,
        },
      });
      request.on('error', () => {});
      request.write(Buffer.concat([pdf(), Buffer.alloc(256 * 1024)]));
      // The partial file is on disk while the body arrives; then the browser goes away.
      let partial: string | undefined;
      await expect
        .poll(async () => {
          partial = [...(await spooled())].find((name) => !before.has(name));
          return partial;
        })
        .toBeDefined();
      request.destroy();
      await expect.poll(async () => (await spooled()).has(partial!)).toBe(false);
      expect(await storedCounts(ctx)).toEqual({ documents: 0, versions: 0, chunks: 0 });
    } finally {
      await server.close();
    }
  });

  it('serves a file stored through one server instance from another on the same database', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const bytes = pdf('dos instancias');
    const created = (await upload(ctx, admin, reservation.id, 'Escritura', 'escritura.pdf', bytes)).json()
      .document;
    // A second instance: nothing of the first one's memory, only the database (DESIGN §14).
    const other = await buildApp({
      db: ctx.appDb,
      serveClient: false,
      env: { LOG_LEVEL: 'silent', NODE_ENV: 'test' },
    });
    try {
      const elsewhere = new Agent(other);
      elsewhere.cookie = admin.cookie;
      const list = (await elsewhere.get(`/api/reservations/${reservation.id}/documents`)).json();
      expect(list.documents.map((row: { id: string }) => row.id)).toEqual([created.id]);
      const served = await elsewhere.get(
        `/api/reservations/${reservation.id}/documents/${created.id}/download`,
      );
      expect(served.rawPayload.equals(bytes)).toBe(true);
      // And a version added there is the one the first instance serves.
      const image = await png();
      const replaced = await elsewhere.post(
        `/api/reservations/${reservation.id}/documents/${created.id}/versions?fileName=e.png&version=1`,
        image,
        OCTET,
      );
      expect(replaced.statusCode).toBe(201);
      const back = await admin.get(`/api/reservations/${reservation.id}/documents/${created.id}/download`);
      expect(back.rawPayload.equals(image)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('required documents (the checklist)', () => {
  const ctx = useTestApp();

  it('refuses completing a task whose required document is missing, naming it, and allows it once uploaded', async () => {
    const admin = await loginAs(ctx);
    const reservation = await createReservation(ctx.db);
    const flow = await createSaleFlow(ctx.db, { reservationId: reservation.id });
    const types = (await admin.get('/api/document-types')).json();
    const promise = types.types.find((type: { name: string }) => type.name === 'Promesa firmada');
    const task = types.tasks.find((row: { name: string }) => row.name === 'FIRMA PROMESA COORDINADA');
    const configured = await admin.put(`/api/document-types/${promise.id}`, {
      name: promise.name,
      isRestricted: false,
      sortOrder: promise.sortOrder,
      requiredByTaskIds: [task.id],
      version: promise.version,
    });
    expect(configured.statusCode).toBe(200);
    expect(configured.json().type.requiredBy).toEqual([
      { taskId: task.id, taskName: 'FIRMA PROMESA COORDINADA', workflowName: 'Flujo de Venta Regular' },
    ]);
    const panel = (await admin.get(`/api/reservations/${reservation.id}/documents`)).json();
    expect(panel.missing).toEqual([{ typeName: 'Promesa firmada', taskName: 'FIRMA PROMESA COORDINADA' }]);
    // The flow's screen says it on the task before anyone tries (issue 57), and on no other task.
    const requiresOf = async () => {
      const detail = (await admin.get(`/api/sale-flows/${flow.id}`)).json();
      const tasks = detail.flow.stages.flatMap(
        (stage: { tasks: { name: string; requires: string[] }[] }) => stage.tasks,
      );
      return Object.fromEntries(
        tasks
          .filter((t: { requires: string[] }) => t.requires.length > 0)
          .map((t: { name: string; requires: string[] }) => [t.name, t.requires]),
      );
    };
    expect(await requiresOf()).toEqual({ 'FIRMA PROMESA COORDINADA': ['Promesa firmada'] });

    const url = `/api/sale-flows/${flow.id}/tasks/${flow.task('FIRMA PROMESA COORDINADA')}/status`;
    const refused = await admin.put(url, { status: 'completed' });
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused).message).toBe(
      'Falta el documento «Promesa firmada» de esta reserva: súbalo en Documentos antes de completar la tarea.',
    );
    const unchanged = await flow.state();
    expect(unchanged.tasks.find((t) => t.id === flow.task('FIRMA PROMESA COORDINADA'))?.status).not.toBe(
      'completed',
    );
    // Other tasks and other statuses are not held up.
    expect((await admin.put(url, { status: 'in_progress' })).statusCode).toBe(200);
    const other = `/api/sale-flows/${flow.id}/tasks/${flow.task('COF PENDIENTE GENERACIÓN')}/status`;
    expect((await admin.put(other, { status: 'completed' })).statusCode).toBe(200);

    // Another type's document does not count.
    await upload(ctx, admin, reservation.id, 'Escritura', 'escritura.pdf', pdf());
    expect((await admin.put(url, { status: 'completed' })).statusCode).toBe(409);
    await upload(ctx, admin, reservation.id, 'Promesa firmada', 'promesa.pdf', pdf());
    const completed = await admin.put(url, { status: 'completed' });
    expect(completed.statusCode).toBe(200);
    expect(await requiresOf()).toEqual({});
    expect((await admin.get(`/api/reservations/${reservation.id}/documents`)).json().missing).toEqual([]);
  });

  it('lets only administrators change the types, with a clear message for a duplicate name', async () => {
    const admin = await loginAs(ctx);
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const body = { name: 'Certificado de dominio vigente', isRestricted: true, requiredByTaskIds: [] };
    expect((await kam.post('/api/document-types', body)).statusCode).toBe(403);
    const created = await admin.post('/api/document-types', body);
    expect(created.statusCode).toBe(201);
    expect(created.json().type).toMatchObject({ name: body.name, isRestricted: true, documentCount: 0 });
    const duplicate = await admin.post('/api/document-types', { ...body, name: 'promesa FIRMADA' });
    expect(duplicate.statusCode).toBe(409);
    expect(errorOf(duplicate).message).toBe('Ya existe un tipo de documento con ese nombre.');
    expect((await admin.delete(`/api/document-types/${created.json().type.id}`)).statusCode).toBe(204);
    const reservation = await createReservation(ctx.db);
    await upload(ctx, admin, reservation.id, 'Otro', 'otro.pdf', pdf());
    const inUse = await admin.delete(`/api/document-types/${await typeId(ctx, 'Otro')}`);
    expect(inUse.statusCode).toBe(409);
  });
});

describe("the product's own PDFs", () => {
  const ctx = useTestApp();

  it("makes the reservation's receipt and the broker's commission statement, the same bytes for the same data", async () => {
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const broker = await createBroker(ctx.db, { name: 'Corredora Andes' });
    const reservation = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    const receiptUrl = `/api/reservations/${reservation.id}/receipt.pdf`;
    const first = await kam.get(receiptUrl);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const second = await kam.get(receiptUrl);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);

    const statementUrl = `/api/reservations/${reservation.id}/commission-statement.pdf`;
    expect((await kam.get(statementUrl)).statusCode).toBe(409);
    await createCommission(ctx.db, reservation, { invoice1: 'F-1234', commissionAmount: '95.50' });
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const statement = await payments.get(statementUrl);
    expect(statement.statusCode).toBe(200);
    expect((await payments.get(statementUrl)).rawPayload.equals(statement.rawPayload)).toBe(true);
    // The invoice's folio is a fact of a restricted type: whoever may not see those documents may not
    // read it in the statement either (issue 56).
    const refused = await kam.get(statementUrl);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).message).toBe(
      'La Liquidación de Comisión cita los folios de la orden de compra y de la factura del broker: solo la ven quienes pueden ver esos documentos.',
    );
    // A statement that cites no folio carries nothing restricted: every staff user reads it.
    const plain = await createReservation(ctx.db, { isWithBroker: true, brokerId: broker.id });
    await createCommission(ctx.db, plain, { commissionAmount: '95.50' });
    expect((await kam.get(`/api/reservations/${plain.id}/commission-statement.pdf`)).statusCode).toBe(200);
    expect(
      (await kam.get('/api/reservations/00000000-0000-4000-8000-000000000000/receipt.pdf')).statusCode,
    ).toBe(404);
  });
});
