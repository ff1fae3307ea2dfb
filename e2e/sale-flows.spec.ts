import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { ACCOUNTS, apiReservation, signIn, uniqueText } from './fixtures';

const COF = ['COF PENDIENTE GENERACIÓN', 'COF PENDIENTE FIRMA', 'SOLICITUD VB COF PENDIENTE'];

interface FlowTask {
  id: string;
  name: string;
  status: string;
  version: number;
}

/** A reservation through the API (these journeys are about the flow, not the reservation form). */
async function reservationFor(
  request: APIRequestContext,
  origin: string,
  firstName: string,
  lastName: string,
) {
  const reservation = await apiReservation(request, origin, { firstName, lastName, prefix: 'F' });
  return { flowId: reservation.saleFlowId, number: reservation.number };
}

async function tasksOf(request: APIRequestContext, flowId: string): Promise<FlowTask[]> {
  const flow = (await (await request.get(`/api/sale-flows/${flowId}`)).json()).flow;
  return flow.stages.flatMap((stage: { tasks: FlowTask[] }) => stage.tasks);
}

const taskCard = (page: Page, name: string) =>
  page.getByRole('list', { name: /^Tareas de / }).getByRole('listitem', { name, exact: true });

async function setStatus(page: Page, task: string, status: string) {
  await page.getByRole('combobox', { name: `Estado de ${task}` }).click();
  await page.getByRole('option', { name: status, exact: true }).click();
}

test.describe('flujo de reservas', () => {
  test('encuentra el flujo por cliente, completa la etapa Reserva, asigna, comenta y edita el mes de proyección', async ({
    page,
  }) => {
    // A long journey (26 s on a quiet machine): room for a loaded one.
    test.setTimeout(120_000);
    await page.goto('/flujo-reservas');
    const lastName = uniqueText('Quiroga');
    await reservationFor(page.request, new URL(page.url()).origin, 'Eulalia', lastName);

    // Every word of the name, accents and case ignored.
    await page.getByLabel('Buscar por nombre del cliente').fill(`eulalia ${lastName.toUpperCase()}`);
    const row = page.getByRole('row').filter({ hasText: `Eulalia ${lastName}` });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Reserva');
    await expect(row).toContainText('En Proceso');
    await row.getByRole('cell', { name: 'Edificio Los Aromos' }).click();
    await expect(page.getByRole('heading', { name: /^Flujo de Reserva N°/ })).toBeVisible();
    await expect(page.getByTestId('current-stage')).toHaveText('Reserva');

    // The three COF tasks completed: Promesa becomes the current stage and its tasks start.
    for (const task of COF) {
      await setStatus(page, task, 'Completada');
      await expect(page.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('Completada');
    }
    await expect(page.getByTestId('current-stage')).toHaveText('Promesa');
    const promise = 'PENDIENTE GENERACIÓN PROMESA';
    await expect(taskCard(page, promise).getByTestId('task-started')).toHaveText(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/,
    );

    // Two users assigned at once, through the popup's search.
    await taskCard(page, promise)
      .getByRole('button', { name: `Asignar responsables a ${promise}` })
      .click();
    const assign = page.getByRole('dialog', { name: 'Asignar responsables' });
    await assign.getByLabel('Buscar usuario').fill('alicia');
    await assign.getByRole('checkbox', { name: ACCOUNTS.admin.name }).click();
    await assign.getByLabel('Buscar usuario').fill('karla');
    await assign.getByRole('checkbox', { name: ACCOUNTS.kam.name }).click();
    await assign.getByRole('button', { name: 'Guardar' }).click();
    await expect(assign).toBeHidden();
    await expect(taskCard(page, promise).getByRole('group', { name: /^Asignados:/ })).toHaveAccessibleName(
      `Asignados: ${ACCOUNTS.admin.name}, ${ACCOUNTS.kam.name}`,
    );

    // A comment mentioning a user: '@' opens the picker; the mention shows highlighted; the count rises.
    await taskCard(page, promise)
      .getByRole('button', { name: `Comentarios de ${promise}: 0` })
      .click();
    const comments = page.getByRole('dialog', { name: 'Comentarios' });
    await expect(comments.getByText('No hay comentarios')).toBeVisible();
    await comments.getByRole('button', { name: 'Comentar' }).click();
    await expect(comments.getByText('El comentario es obligatorio')).toBeVisible();
    const box = comments.getByLabel('Nuevo comentario');
    await box.pressSequentially('Revisar el origen de fondos con @kar');
    await comments.getByRole('option', { name: new RegExp(ACCOUNTS.kam.name) }).click();
    await box.pressSequentially('antes del viernes');
    await comments.getByRole('button', { name: 'Comentar' }).click();
    const comment = comments.getByRole('listitem');
    await expect(comment).toHaveCount(1);
    await expect(comment.locator('[data-mention]')).toHaveText(`@${ACCOUNTS.kam.name}`);
    await expect(comment).toContainText('antes del viernes');
    await comments.getByRole('button', { name: 'Cerrar' }).click();
    await expect(
      taskCard(page, promise).getByRole('button', { name: `Comentarios de ${promise}: 1` }),
    ).toBeVisible();

    // The commission projection month, typed in Spanish, kept after a reload.
    await page.getByRole('button', { name: 'Editar mes proyección comisión' }).click();
    await page.getByLabel('Mes Proyección Comisión').fill('marzo de 2027');
    await page.getByRole('button', { name: 'Guardar', exact: true }).click();
    await expect(page.getByTestId('projection-month')).toHaveText('marzo de 2027');
    await page.reload();
    await expect(page.getByTestId('projection-month')).toHaveText('marzo de 2027');

    // Back in the list: the two assignees' avatars on the row.
    await page.goto(`/flujo-reservas?q=${encodeURIComponent(`Eulalia ${lastName}`)}`);
    const listed = page.getByRole('row').filter({ hasText: `Eulalia ${lastName}` });
    await expect(listed).toContainText('Promesa');
    // Beside whoever the flow's other tasks had (default assignees), in the order they were assigned.
    await expect(listed.getByRole('group', { name: /^Asignados:/ })).toHaveAccessibleName(
      new RegExp(`${ACCOUNTS.admin.name}, ${ACCOUNTS.kam.name}`),
    );
  });

  test('un usuario que no es administrador es rechazado en una tarea completada y la pantalla se actualiza; un administrador la reabre', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await page.goto('/flujo-reservas');
    const origin = new URL(page.url()).origin;
    const { flowId } = await reservationFor(page.request, origin, 'Benito', uniqueText('Carrasco'));
    const task = COF[0]!;

    // The KAM opens the flow while the task is still pending.
    const kamContext = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      locale: 'es-CL',
      timezoneId: 'America/Santiago',
      storageState: { cookies: [], origins: [] },
    });
    // Her tab's live stream is held closed: her screen stays as she opened it (a tab that lost its
    // stream), so her change reaches the server against a completed task.
    await kamContext.route('**/api/events', (route) => route.abort());
    const kam = await kamContext.newPage();
    await signIn(kam, ACCOUNTS.kam);
    await kam.goto(`/flujo-reservas/${flowId}`);
    await expect(kam.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('Pendiente');

    // Meanwhile an administrator completes it.
    const pending = (await tasksOf(page.request, flowId)).find((candidate) => candidate.name === task)!;
    const completed = await page.request.put(`/api/sale-flows/${flowId}/tasks/${pending.id}/status`, {
      headers: { origin },
      data: { status: 'completed' },
    });
    expect(completed.status()).toBe(200);

    // The KAM's change is refused with the spec's message, and the screen shows the task as it is.
    await setStatus(kam, task, 'En Proceso');
    await expect(taskCard(kam, task).getByRole('alert')).toHaveText(
      'Solo los administradores pueden modificar tareas completadas',
    );
    await expect(kam.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('Completada');
    await expect(kam.getByRole('combobox', { name: `Estado de ${task}` })).toBeDisabled();
    await kamContext.close();

    // An administrator reopens it.
    await page.goto(`/flujo-reservas/${flowId}`);
    await expect(page.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('Completada');
    await setStatus(page, task, 'En Proceso');
    await expect(page.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('En Proceso');
    await page.reload();
    await expect(page.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('En Proceso');
    await expect(taskCard(page, task)).toContainText('Término: —');
  });

  test('una pantalla abierta muestra sola el cambio que otro usuario hace en una tarea', async ({
    page,
    browser,
  }) => {
    await page.goto('/flujo-reservas');
    const origin = new URL(page.url()).origin;
    const { flowId } = await reservationFor(page.request, origin, 'Clemente', uniqueText('Ovalle'));
    const task = COF[1]!;
    await page.goto(`/flujo-reservas/${flowId}`);
    await expect(page.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('Pendiente');

    // The KAM, in a browser of her own, moves the task; the administrator's screen is not reloaded.
    const kamContext = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      locale: 'es-CL',
      timezoneId: 'America/Santiago',
      storageState: { cookies: [], origins: [] },
    });
    const kam = await kamContext.newPage();
    await signIn(kam, ACCOUNTS.kam);
    const pending = (await tasksOf(kam.request, flowId)).find((candidate) => candidate.name === task)!;
    const moved = await kam.request.put(`/api/sale-flows/${flowId}/tasks/${pending.id}/status`, {
      headers: { origin },
      data: { status: 'in_progress', version: pending.version },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    await kamContext.close();

    await expect(page.getByRole('combobox', { name: `Estado de ${task}` })).toHaveValue('En Proceso');
  });

  test('en un teléfono la lista son tarjetas y el detalle se apila sin salirse de la pantalla', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/flujo-reservas');
    const lastName = uniqueText('Tapia');
    await reservationFor(page.request, new URL(page.url()).origin, 'Renata', lastName);
    await page.goto(`/flujo-reservas?q=${encodeURIComponent(lastName)}`);
    const cards = page.getByRole('list', { name: 'Flujos de reserva' }).getByRole('listitem');
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText(`Renata ${lastName}`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await cards.first().click();
    await expect(page.getByRole('heading', { name: /^Flujo de Reserva N°/ })).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Tareas de Reserva' }).getByRole('listitem').first(),
    ).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
