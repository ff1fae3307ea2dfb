import { count, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { FIRST_PAYMENT_WORKFLOW, SALE_WORKFLOW } from '../../../shared/domain/workflow/names';
import { totalUnitsNote } from '../../../shared/schemas/settings';
import type { Database } from '../../db/client';
import { queryRows } from '../../db/client';
import {
  defaultSeller,
  profiles,
  projects,
  realEstateAgencies,
  userRoles,
  workflowStages,
  workflows,
  workflowTaskDefaultAssignees,
  workflowTasks,
} from '../../db/schema';
import { type Agent, errorOf, loginAs, useTestApp } from '../../test/app';
import { createAgency, createClient, createProject, createUser } from '../../test/builders';
import { addUnit } from '../../test/stock-builders';

async function tableCount(db: Database, table: PgTable) {
  const [row] = await db.select({ n: count() }).from(table);
  return row!.n;
}

const agencyBody = {
  rut: '76.086.428-5',
  businessName: 'Inmobiliaria Los Andes SpA',
  bank: 'Banco de Chile',
  accountType: 'Cuenta Corriente',
  accountNumber: '00-123-45678-09',
};

async function taskNamed(db: Database, workflowName: string, taskName: string) {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`select t.id from ${workflowTasks} t join ${workflowStages} s on s.id = t.stage_id
        join ${workflows} w on w.id = s.workflow_id where w.name = ${workflowName} and t.name = ${taskName}`,
  );
  return row!.id;
}

describe('settings: who may write', () => {
  const ctx = useTestApp();

  it('refuses every settings write to a non-administrator with 403 and changes nothing; reads are open', async () => {
    const admin = await loginAs(ctx);
    const agency = await createAgency(ctx.db);
    const project = await createProject(ctx.db, { realEstateAgencyId: agency.id });
    const other = await createUser(ctx.db, { userType: 'Operaciones', isSeller: true });
    const taskId = await taskNamed(ctx.db, SALE_WORKFLOW, 'PENDIENTE VB PROMESA');
    const png = Buffer.from('89504e470d0a1a0a', 'hex');

    const snapshot = async () =>
      JSON.stringify([
        await ctx.db.select().from(realEstateAgencies),
        await ctx.db.select().from(projects),
        await ctx.db.select().from(profiles),
        await ctx.db.select().from(userRoles),
        await ctx.db.select().from(defaultSeller),
        await ctx.db.select().from(workflowTaskDefaultAssignees),
      ]);
    const before = await snapshot();
    const octet = { 'content-type': 'application/octet-stream' };
    const writes: [string, string, unknown?, Record<string, string>?][] = [
      ['POST', '/api/settings/agencies', agencyBody],
      ['PUT', `/api/settings/agencies/${agency.id}`, { ...agencyBody, version: 1 }],
      [
        'POST',
        '/api/settings/projects',
        { name: 'X', stage: 'E1', commune: 'Maipú', deadline: '2027-01-01', realEstateAgencyId: agency.id },
      ],
      [
        'PUT',
        `/api/settings/projects/${project.id}`,
        {
          name: 'X',
          stage: 'E1',
          commune: 'Maipú',
          deadline: '2027-01-01',
          realEstateAgencyId: agency.id,
          version: 1,
        },
      ],
      ['PUT', `/api/settings/projects/${project.id}/logo`, png, octet],
      ['DELETE', `/api/settings/projects/${project.id}/logo`],
      [
        'POST',
        '/api/settings/users',
        {
          email: 'nuevo@inmoflujo.test',
          password: 'clave-segura-123',
          firstName: 'N',
          lastName: 'N',
          position: 'P',
          userType: 'Administrador',
        },
      ],
      [
        'PUT',
        `/api/settings/users/${other.id}`,
        {
          firstName: 'N',
          lastName: 'N',
          position: 'P',
          userType: 'Administrador',
          isSeller: true,
          version: 1,
        },
      ],
      ['POST', `/api/settings/users/${other.id}/deactivate`],
      ['POST', `/api/settings/users/${other.id}/reactivate`],
      ['PUT', `/api/settings/users/${other.id}/password`, { password: 'otra-clave-segura' }],
      ['PUT', `/api/settings/users/${other.id}/avatar`, png, octet],
      ['DELETE', `/api/settings/users/${other.id}/avatar`],
      ['PUT', '/api/settings/default-seller', { userId: other.id }],
      ['PUT', `/api/settings/workflow-tasks/${taskId}/default-assignees`, { userIds: [other.id] }],
    ];
    for (const userType of ['KAM', 'Gestor de Pagos', 'Supervisor', 'Operaciones'] as const) {
      const agent: Agent = await loginAs(ctx, { userType });
      for (const [method, url, body, headers] of writes) {
        const response = await agent.request(method as 'POST', url, body as never, headers);
        expect(response.statusCode, `${userType} ${method} ${url}`).toBe(403);
      }
      for (const url of [
        '/api/settings/agencies',
        '/api/settings/projects',
        '/api/settings/users',
        '/api/settings/sale-flow',
        '/api/settings/payment-flows',
      ]) {
        expect((await agent.get(url)).statusCode, url).toBe(200);
      }
    }
    // The users logged in above add their own rows; everything the writes named is unchanged.
    const after = JSON.parse(await snapshot());
    const expected = JSON.parse(before);
    for (const index of [0, 1, 3, 4, 5]) expect(after[index]).toEqual(expected[index]);
    const otherNow = after[2].find((row: { id: string }) => row.id === other.id);
    expect(otherNow).toEqual(expected[2].find((row: { id: string }) => row.id === other.id));
    // And the administrator may.
    expect((await admin.post('/api/settings/agencies', agencyBody)).statusCode).toBe(201);
  });
});

describe('settings: inmobiliarias', () => {
  const ctx = useTestApp();

  it('creates, lists by business name, searches by RUT or name, edits with a version', async () => {
    const admin = await loginAs(ctx);
    const created = await admin.post('/api/settings/agencies', agencyBody);
    expect(created.statusCode).toBe(201);
    const agency = created.json().agency;
    expect(agency).toMatchObject({
      rut: '76086428-5',
      businessName: 'Inmobiliaria Los Andes SpA',
      version: 1,
    });
    await createAgency(ctx.db, {
      businessName: 'Alameda Desarrollos SpA',
      rut: '96.500.000-7'.replace(/\./g, ''),
    });

    const all = (await admin.get('/api/settings/agencies')).json();
    expect(all.rows.map((row: { businessName: string }) => row.businessName)).toEqual([
      'Alameda Desarrollos SpA',
      'Inmobiliaria Los Andes SpA',
    ]);
    expect(Object.keys(all.rows[0]).sort()).toEqual(
      ['accountNumber', 'accountStatus', 'accountType', 'bank', 'businessName', 'id', 'rut'].sort(),
    );
    const byRut = (await admin.get('/api/settings/agencies?search=76.086.428')).json();
    expect(byRut.rows.map((row: { id: string }) => row.id)).toEqual([agency.id]);
    const byName = (await admin.get('/api/settings/agencies?search=andes%20inmobiliaria')).json();
    expect(byName.rows.map((row: { id: string }) => row.id)).toEqual([agency.id]);
    const options = (await admin.get('/api/settings/agencies/options')).json().agencies;
    expect(options.map((row: { businessName: string }) => row.businessName)).toEqual([
      'Alameda Desarrollos SpA',
      'Inmobiliaria Los Andes SpA',
    ]);

    const edited = await admin.put(`/api/settings/agencies/${agency.id}`, {
      ...agencyBody,
      bank: 'BancoEstado',
      accountType: 'Cuenta Vista',
      version: 1,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().agency).toMatchObject({
      bank: 'BancoEstado',
      accountType: 'Cuenta Vista',
      version: 2,
    });
    const stale = await admin.put(`/api/settings/agencies/${agency.id}`, { ...agencyBody, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(errorOf(stale).code).toBe('STALE_VERSION');
    expect((await admin.get(`/api/settings/agencies/${agency.id}`)).json().agency.bank).toBe('BancoEstado');
  });

  it('holds an account entered or changed for another person’s verification, never its author’s (issue 53)', async () => {
    const admin = await loginAs(ctx);
    const payments = await loginAs(ctx, { userType: 'Gestor de Pagos' });
    const kam = await loginAs(ctx, { userType: 'KAM' });
    const created = (await admin.post('/api/settings/agencies', agencyBody)).json().agency;
    expect(created).toMatchObject({ accountStatus: 'unverified', canVerifyAccount: false });
    const url = `/api/settings/agencies/${created.id}`;
    // Its author cannot verify it; nor can anyone outside the payments team.
    const own = await admin.post(`${url}/account/verify`, { version: 1 });
    expect(own.statusCode).toBe(403);
    expect(errorOf(own).code).toBe('BANK_VERIFY_OWN_CHANGE');
    const outsider = await kam.post(`${url}/account/verify`, { version: 1 });
    expect(outsider.statusCode).toBe(403);
    expect(errorOf(outsider).code).toBe('BANK_VERIFY_FORBIDDEN');
    expect((await payments.get(url)).json().agency).toMatchObject({
      accountStatus: 'unverified',
      canVerifyAccount: true,
    });
    const verified = await payments.post(`${url}/account/verify`, { version: 1 });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().agency).toMatchObject({
      accountStatus: 'verified',
      canVerifyAccount: false,
      version: 2,
    });
    const again = await payments.post(`${url}/account/verify`, { version: 2 });
    expect(errorOf(again).code).toBe('BANK_NOTHING_TO_VERIFY');
    // Its name changes without a new verification; its account number does not.
    const renamed = await admin.put(url, { ...agencyBody, businessName: 'Los Andes SpA', version: 2 });
    expect(renamed.json().agency).toMatchObject({ accountStatus: 'verified', version: 3 });
    const moved = await admin.put(url, {
      ...agencyBody,
      businessName: 'Los Andes SpA',
      accountNumber: '777',
      version: 3,
    });
    expect(moved.json().agency).toMatchObject({ accountStatus: 'unverified', version: 4 });
    const list = (await payments.get('/api/settings/agencies')).json().rows;
    expect(list.find((row: { id: string }) => row.id === created.id).accountStatus).toBe('unverified');
    // Each change and verification is in the agency's history (the row's audit trigger).
    const [audited] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from audit_log
           where table_name = 'real_estate_agencies' and record_id = ${created.id}
             and after ? 'bank_verified_by'`,
    );
    expect(audited!.n).toBeGreaterThan(0);

    // Each account entered, changed or verified was told to those who may verify it, never to its
    // author: the agency has no address of its own (decision 0077). Last four digits only; a KAM never.
    const notices = await queryRows<{ to: string; notice: Record<string, unknown> }>(
      ctx.db,
      sql`select to_address as "to", notices->0 as notice from mail_messages
           where kind = 'bankAccount' order by created_at, to_address`,
    );
    expect(notices.map(({ to, notice }) => [to, notice.action, notice.accountEnding])).toEqual([
      [payments.user!.email.toLowerCase(), 'changed', `···· ${agencyBody.accountNumber.slice(-4)}`],
      [admin.user!.email.toLowerCase(), 'verified', `···· ${agencyBody.accountNumber.slice(-4)}`],
      [payments.user!.email.toLowerCase(), 'changed', '···· 777'],
    ]);
    expect(notices[0]!.notice).toMatchObject({ payee: 'agency', agencyName: 'Inmobiliaria Los Andes SpA' });
    expect(JSON.stringify(notices)).not.toContain(kam.user!.email.toLowerCase());

    // A grant withdrawn: the payments team no longer verifies, so no longer hears of it.
    const withdrawn = await admin.put('/api/settings/permissions/bankAccounts.verify/Gestor%20de%20Pagos', {
      granted: false,
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    const again2 = await admin.put(url, {
      ...agencyBody,
      businessName: 'Los Andes SpA',
      accountNumber: '888',
      version: 4,
    });
    expect(again2.statusCode, again2.body).toBe(200);
    const [latest] = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from mail_messages where kind = 'bankAccount' and notices->0->>'accountEnding' = '···· 888'`,
    );
    expect(latest!.n).toBe(0);
  });

  it('requires every field, checks the RUT digit and the account type, refuses a repeated RUT', async () => {
    const admin = await loginAs(ctx);
    const empty = await admin.post('/api/settings/agencies', {
      rut: '',
      businessName: ' ',
      bank: '',
      accountType: 'Cuenta Rut',
      accountNumber: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(errorOf(empty).fields).toEqual({
      rut: 'El RUT es obligatorio',
      businessName: 'La razón social es obligatoria',
      bank: 'El banco es obligatorio',
      accountType: 'Seleccione el tipo de cuenta',
      accountNumber: 'El número de cuenta es obligatorio',
    });
    const badDigit = await admin.post('/api/settings/agencies', { ...agencyBody, rut: '76.086.428-4' });
    expect(errorOf(badDigit).fields?.rut).toBe('El RUT no es válido (revise el dígito verificador)');
    expect((await admin.post('/api/settings/agencies', agencyBody)).statusCode).toBe(201);
    const repeated = await admin.post('/api/settings/agencies', { ...agencyBody, rut: '760864285' });
    expect(repeated.statusCode).toBe(409);
    expect(errorOf(repeated)).toMatchObject({
      code: 'AGENCY_RUT_TAKEN',
      fields: { rut: 'Ya existe una inmobiliaria con este RUT' },
    });
    expect(await tableCount(ctx.db, realEstateAgencies)).toBe(1);
  });
});

describe('settings: proyectos', () => {
  // 23 November 2026, 23:30 in Santiago (02:30 UTC on the 24th).
  const ctx = useTestApp({ now: () => new Date('2026-11-24T02:30:00Z') });

  it('creates a project of an agency; delivery and installments follow the deadline on the Santiago calendar', async () => {
    const admin = await loginAs(ctx);
    const agency = await createAgency(ctx.db, { businessName: 'Inmobiliaria Sur SpA' });
    const body = {
      name: 'Parque Ñuñoa',
      stage: 'Etapa 2',
      commune: 'Ñuñoa',
      deadline: '2027-03-10',
      realEstateAgencyId: agency.id,
      totalUnits: 120,
    };
    const created = await admin.post('/api/settings/projects', body);
    expect(created.statusCode).toBe(201);
    const project = created.json().project;
    // November 2026 → March 2027: 4 calendar months, plus one.
    expect(project).toMatchObject({
      name: 'Parque Ñuñoa',
      agencyName: 'Inmobiliaria Sur SpA',
      delivery: 'Futura',
      installments: 5,
      totalUnits: 120,
      logoUrl: null,
      version: 1,
      inventoryUnits: 0,
    });
    // 'Total de Unidades' is reconciled with the inventory (issue 57): the answer says how many it holds.
    await addUnit(admin, project.id, { kind: 'apartment', number: '101' });
    const read = (await admin.get(`/api/settings/projects/${project.id}`)).json().project;
    expect(read.inventoryUnits).toBe(1);
    expect(totalUnitsNote(read.totalUnits, read.inventoryUnits)).toBe(
      'No coincide con el inventario, que tiene 1 unidad',
    );
    expect(totalUnitsNote(1, read.inventoryUnits)).toBe('El inventario tiene 1 unidad');
    expect(totalUnitsNote('', 0)).toBeNull();
    await createProject(ctx.db, {
      name: 'Alto Maipú',
      commune: 'Maipú',
      deadline: '2026-11-23',
      realEstateAgencyId: agency.id,
    });
    await createProject(ctx.db, {
      name: 'Bosque Viejo',
      commune: 'Puente Alto',
      deadline: '2026-11-22',
      realEstateAgencyId: agency.id,
    });

    const list = (await admin.get('/api/settings/projects')).json();
    expect(
      list.rows.map((row: { name: string; delivery: string; installments: number }) => [
        row.name,
        row.delivery,
        row.installments,
      ]),
    ).toEqual([
      ['Alto Maipú', 'Futura', 1],
      ['Bosque Viejo', 'Inmediata', 1],
      ['Parque Ñuñoa', 'Futura', 5],
    ]);
    const byCommune = (await admin.get('/api/settings/projects?search=nunoa')).json();
    expect(byCommune.rows.map((row: { name: string }) => row.name)).toEqual(['Parque Ñuñoa']);
    const byName = (await admin.get('/api/settings/projects?search=maipu%20alto')).json();
    expect(byName.rows.map((row: { name: string }) => row.name)).toEqual(['Alto Maipú']);

    const edited = await admin.put(`/api/settings/projects/${project.id}`, {
      ...body,
      deadline: '2026-12-01',
      totalUnits: null,
      version: 1,
    });
    expect(edited.json().project).toMatchObject({ installments: 2, totalUnits: null, version: 2 });
    expect(
      (await admin.put(`/api/settings/projects/${project.id}`, { ...body, version: 1 })).statusCode,
    ).toBe(409);
  });

  it('requires name, stage, commune, deadline and an existing agency', async () => {
    const admin = await loginAs(ctx);
    const empty = await admin.post('/api/settings/projects', {
      name: '',
      stage: '',
      commune: '',
      deadline: '',
      realEstateAgencyId: '',
    });
    expect(errorOf(empty).fields).toEqual({
      name: 'El nombre del proyecto es obligatorio',
      stage: 'La etapa es obligatoria',
      commune: 'La comuna es obligatoria',
      deadline: 'La fecha de entrega es obligatoria',
      realEstateAgencyId: 'Seleccione la inmobiliaria',
    });
    const unknownAgency = await admin.post('/api/settings/projects', {
      name: 'P',
      stage: 'E',
      commune: 'C',
      deadline: '2027-01-01',
      realEstateAgencyId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownAgency.statusCode).toBe(400);
    expect(errorOf(unknownAgency).fields).toEqual({
      realEstateAgencyId: 'La inmobiliaria seleccionada no existe',
    });
    expect(await tableCount(ctx.db, projects)).toBe(0);
  });
});

describe('settings: the flows\u2019 defaults', () => {
  const ctx = useTestApp();

  it('sets the default seller and a sale task’s default assignees, which a new reservation then gets', async () => {
    const admin = await loginAs(ctx);
    const seller = await createUser(ctx.db, { firstName: 'Sergio', isSeller: true, userType: 'KAM' });
    const notSeller = await createUser(ctx.db, { firstName: 'Olga', userType: 'Operaciones' });
    const legal = await createUser(ctx.db, { firstName: 'Lorena', userType: 'Operaciones' });

    const refused = await admin.put('/api/settings/default-seller', { userId: notSeller.id });
    expect(refused.statusCode).toBe(400);
    expect(errorOf(refused).message).toBe('El usuario seleccionado no es un vendedor activo');
    expect((await admin.put('/api/settings/default-seller', { userId: seller.id })).json()).toEqual({
      defaultSellerId: seller.id,
    });

    const settings = (await admin.get('/api/settings/sale-flow')).json();
    expect(settings.defaultSellerId).toBe(seller.id);
    expect(settings.sellers.map((user: { id: string }) => user.id)).toEqual([seller.id]);
    expect(settings.workflow.name).toBe(SALE_WORKFLOW);
    expect(settings.workflow.singleAssignee).toBe(false);
    const task = settings.workflow.stages
      .flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)
      .find((candidate: { name: string }) => candidate.name === 'PENDIENTE VB PROMESA');
    const saved = await admin.put(`/api/settings/workflow-tasks/${task.id}/default-assignees`, {
      userIds: [legal.id, notSeller.id, legal.id],
    });
    expect(saved.json()).toEqual({ task: { id: task.id, defaultAssigneeIds: [legal.id, notSeller.id] } });

    // A new reservation: the seller preselected, the defaults on the task.
    const options = (await admin.get('/api/reservations/form-options')).json();
    expect(options.defaultSellerId).toBe(seller.id);
    const project = await createProject(ctx.db);
    const client = await createClient(ctx.db);
    const reservation = await admin.post('/api/reservations', {
      reservationNumber: 'R-77',
      clientId: client.id,
      projectId: project.id,
      sellerId: seller.id,
      reservationDate: '2026-11-02',
      apartmentNumber: '101',
      parkingNumber: null,
      storageNumber: null,
      apartmentPrice: '3000',
      parkingPrice: '0',
      storagePrice: '0',
      columnDiscount: '0',
      additionalDiscount: '0',
      otherDiscount: '0',
      reservationPayment: '20',
      promisePayment: '0',
      downPayment: '0',
      creditPayment: '2980',
      subsidyPayment: '0',
      isWithBroker: false,
      brokerId: null,
    });
    expect(reservation.statusCode).toBe(201);
    const assigned = await queryRows<{ userId: string }>(
      ctx.db,
      sql`select a.user_id as "userId" from flow_task_assignees a
          join flow_tasks ft on ft.id = a.flow_task_id join flows f on f.id = ft.flow_id
          where f.reservation_id = ${reservation.json().reservation.id} and ft.task_id = ${task.id}
          order by a.user_id`,
    );
    expect(assigned.map((row) => row.userId).sort()).toEqual([legal.id, notSeller.id].sort());

    // Clearing: [] removes them; null clears the default seller.
    await admin.put(`/api/settings/workflow-tasks/${task.id}/default-assignees`, { userIds: [] });
    expect(await tableCount(ctx.db, workflowTaskDefaultAssignees)).toBe(0);
    expect(
      (await admin.put('/api/settings/default-seller', { userId: null })).json().defaultSellerId,
    ).toBeNull();
    expect(await tableCount(ctx.db, defaultSeller)).toBe(0);
  });

  it('gives a payment task at most one default assignee, active users only, and hides retired tasks', async () => {
    const admin = await loginAs(ctx);
    const jefe = await createUser(ctx.db, { firstName: 'Jaime', userType: 'Supervisor' });
    const otro = await createUser(ctx.db, { firstName: 'Otto', userType: 'Supervisor' });
    const gone = await createUser(ctx.db, { firstName: 'Gina' });
    await ctx.db.update(profiles).set({ isActive: false }).where(eq(profiles.id, gone.id));
    const vb = await taskNamed(ctx.db, FIRST_PAYMENT_WORKFLOW, 'VB Jefe Inversiones');
    // A retired task kept for history.
    const [stage] = await queryRows<{ stageId: string }>(
      ctx.db,
      sql`select stage_id as "stageId" from workflow_tasks where id = ${vb}`,
    );
    await ctx.db
      .insert(workflowTasks)
      .values({ stageId: stage!.stageId, name: 'VB antiguo', sortOrder: 99, isRetired: true });

    const two = await admin.put(`/api/settings/workflow-tasks/${vb}/default-assignees`, {
      userIds: [jefe.id, otro.id],
    });
    expect(two.statusCode).toBe(400);
    expect(errorOf(two).message).toBe('Esta tarea admite un solo responsable por defecto');
    const inactive = await admin.put(`/api/settings/workflow-tasks/${vb}/default-assignees`, {
      userIds: [gone.id],
    });
    expect(inactive.statusCode).toBe(400);
    expect(errorOf(inactive).code).toBe('USER_NOT_AVAILABLE');
    const unknownTask = await admin.put(
      '/api/settings/workflow-tasks/00000000-0000-4000-8000-000000000000/default-assignees',
      { userIds: [] },
    );
    expect(unknownTask.statusCode).toBe(404);
    expect(await tableCount(ctx.db, workflowTaskDefaultAssignees)).toBe(0);

    expect(
      (await admin.put(`/api/settings/workflow-tasks/${vb}/default-assignees`, { userIds: [jefe.id] }))
        .statusCode,
    ).toBe(200);
    const settings = (await admin.get('/api/settings/payment-flows')).json();
    expect(settings.workflows.map((workflow: { name: string }) => workflow.name)).toEqual([
      'Flujo de Pago Principal',
      'Flujo de Segundo Pago',
    ]);
    const tasks = settings.workflows[0].stages.flatMap((s: { tasks: { name: string }[] }) => s.tasks);
    expect(tasks.find((task: { id: string }) => task.id === vb)).toMatchObject({
      name: 'VB Jefe Inversiones',
      defaultAssigneeIds: [jefe.id],
    });
    // Retired by its flag (issue 26: a name prefix is no rule).
    expect(tasks.some((task: { name: string }) => task.name === 'VB antiguo')).toBe(false);
    // 'Quitar Asignación'.
    await admin.put(`/api/settings/workflow-tasks/${vb}/default-assignees`, { userIds: [] });
    expect(await tableCount(ctx.db, workflowTaskDefaultAssignees)).toBe(0);
  });
});
