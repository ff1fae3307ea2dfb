import { expect, type Page, test } from '@playwright/test';
import { ACCOUNTS, apiReservation, newStaffUser, uniqueText } from './fixtures';

// Issue 28 §3: a mention in a task's comment reaches the person — on their bell at once, in the
// 'Menciones' section of /notificaciones (who, where, what), and their link opens the task's comments.

const TASK = 'COF PENDIENTE FIRMA';

const taskCard = (page: Page, name: string) =>
  page.getByRole('list', { name: /^Tareas de / }).getByRole('listitem', { name, exact: true });

test.describe('menciones', () => {
  test('una mención en un comentario sube la campana de la persona sin recargar, se lee en Menciones y su enlace abre los comentarios de la tarea', async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    await page.goto('/dashboard');
    const origin = new URL(page.url()).origin;
    const catalina = await newStaffUser(page, browser, origin, {
      firstName: 'Catalina',
      lastName: 'Mención',
      position: 'Ejecutiva Comercial',
      userType: 'KAM',
    });
    try {
      const reservation = await apiReservation(page.request, origin, {
        firstName: 'Rosa',
        lastName: uniqueText('Mención'),
        prefix: 'M',
      });
      // Her own browser, open on the dashboard: nothing on her bell yet.
      const her = catalina.page;
      await her.goto('/dashboard');
      await expect(her.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
      const badge = her.getByTestId('bell-badge');
      await expect(badge).toHaveCount(0);

      // The administrator comments on a task of the sale flow, mentioning her through the '@' picker.
      await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
      await taskCard(page, TASK)
        .getByRole('button', { name: `Comentarios de ${TASK}: 0` })
        .click();
      const comments = page.getByRole('dialog', { name: 'Comentarios' });
      const box = comments.getByLabel('Nuevo comentario');
      await box.pressSequentially('Por favor @catalina');
      await comments.getByRole('option', { name: new RegExp(catalina.name) }).click();
      await box.pressSequentially('revisa la firma del COF hoy');
      await comments.getByRole('button', { name: 'Comentar' }).click();
      await expect(comments.getByRole('listitem')).toHaveCount(1);
      await expect(comments.getByRole('listitem').locator('[data-mention]')).toHaveText(`@${catalina.name}`);
      await comments.getByRole('button', { name: 'Cerrar' }).click();

      // Her bell goes up without a reload, and says why.
      await expect(badge).toHaveText('1');
      await expect(badge).toHaveAttribute('title', '1 mención sin leer');

      // /notificaciones: who wrote, where, what, when; unread.
      await her.getByRole('link', { name: /^Notificaciones/ }).click();
      await expect(her).toHaveURL(/\/notificaciones$/);
      const section = her.getByRole('region', { name: 'Menciones' });
      await expect(section.getByTestId('mentions-unread')).toHaveText('1 sin leer');
      const mention = section.getByTestId('mention');
      await expect(mention).toHaveCount(1);
      await expect(mention).toHaveAttribute('data-read', 'false');
      await expect(mention).toContainText(`Mención de ${ACCOUNTS.admin.name} en ${TASK}`);
      await expect(mention.getByTestId('mention-where')).toHaveText(
        `Flujo de venta, etapa Reserva · Reserva\u00a0N°\u00a0${reservation.number} · Edificio Los Aromos`,
      );
      await expect(mention.getByTestId('mention-content')).toHaveText(
        `Por favor @${catalina.name} revisa la firma del COF hoy`,
      );
      await expect(mention.locator('[data-mention]')).toHaveText(`@${catalina.name}`);
      await expect(mention.locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
      await expect(mention.getByText('Nueva')).toBeVisible();

      // Its link opens the flow on the task's comments, and it is read: the bell goes back.
      await mention.getByRole('link', { name: 'Ver comentario' }).click();
      await expect(her).toHaveURL(new RegExp(`/flujo-reservas/${reservation.saleFlowId}\\?comentarios=`));
      const opened = her.getByRole('dialog', { name: 'Comentarios' });
      await expect(opened).toContainText(`Tarea: ${TASK}`);
      await expect(opened.getByRole('listitem')).toContainText('revisa la firma del COF hoy');
      await expect(badge).toHaveCount(0);
      await opened.getByRole('button', { name: 'Cerrar' }).click();
      await expect(her).toHaveURL(new RegExp(`/flujo-reservas/${reservation.saleFlowId}$`));

      // Back on /notificaciones: read, and quiet.
      await her.goto('/notificaciones');
      await expect(section.getByTestId('mention')).toHaveAttribute('data-read', 'true');
      await expect(section.getByTestId('mention')).toContainText('Leída el');
      await expect(section.getByTestId('mentions-unread')).toHaveCount(0);

      // Two more mentions while her list is open: they arrive on it and on the bell without a reload;
      // 'Marcar todas como leídas' reads both and the bell goes back.
      const flow = (await (await page.request.get(`/api/sale-flows/${reservation.saleFlowId}`)).json()).flow;
      const taskId = flow.stages
        .flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)
        .find((task: { name: string }) => task.name === TASK).id as string;
      for (const text of ['Segundo aviso', 'Tercer aviso']) {
        const sent = await page.request.post(
          `/api/sale-flows/${reservation.saleFlowId}/tasks/${taskId}/comments`,
          {
            headers: { origin },
            data: { content: `${text} @${catalina.name}`, mentionedUserIds: [catalina.id] },
          },
        );
        expect(sent.status(), await sent.text()).toBe(201);
      }
      await expect(badge).toHaveText('2');
      await expect(section.getByTestId('mention')).toHaveCount(3);
      await expect(section.getByTestId('mention').first()).toContainText('Tercer aviso');
      await expect(section.locator('[data-read="false"]')).toHaveCount(2);
      await section.getByRole('button', { name: 'Marcar todas como leídas' }).click();
      await expect(section.locator('[data-read="false"]')).toHaveCount(0);
      await expect(badge).toHaveCount(0);
    } finally {
      await catalina.close();
    }
  });
});
