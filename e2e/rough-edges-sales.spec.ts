import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiReservation, uniqueText } from './fixtures';

// Issue 57 "Sales and stock": the layout ones, checked in the browser at the sizes they were found
// at (1440×900 and 390×844).

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

function santiagoDay(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Santiago' }).format(new Date());
}

async function originOf(page: Page): Promise<string> {
  await page.goto('/dashboard');
  return new URL(page.url()).origin;
}

type Box = { x: number; y: number; width: number; height: number };
async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not laid out');
  return box;
}
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

for (const size of SIZES) {
  test(`a task row's two avatars side by side, and the payment's 'Valor UF del …' inside its column (${size.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    const origin = await originOf(page);
    const headers = { origin };
    // Today's UF value, so the payment shows its pesos with the line that overprinted.
    const today = await page.request.get(`/api/uf-values?month=${santiagoDay().slice(0, 7)}`);
    const day = (await today.json()).days.find((d: { date: string }) => d.date === santiagoDay());
    if (!day?.value) {
      const saved = await page.request.put(`/api/uf-values/${santiagoDay()}`, {
        headers,
        data: { value: '39.902,60', confirmJump: true },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
    const reservation = await apiReservation(page.request, origin, {
      firstName: 'Valentina',
      lastName: uniqueText('Columnas'),
      prefix: 'LY',
      commission: { commissionAmount: '100', numberOfPayments: 1, firstPaymentPercentage: 100 },
    });

    // Two people on one sale task: both avatars whole, neither over the other.
    const users = (await (await page.request.get('/api/users/options')).json()).users as { id: string }[];
    const flow = (await (await page.request.get(`/api/sale-flows/${reservation.saleFlowId}`)).json()).flow;
    const task = flow.stages.flatMap((stage: { tasks: { id: string; name: string }[] }) => stage.tasks)[0];
    for (const user of users.slice(0, 2)) {
      const assigned = await page.request.post(
        `/api/sale-flows/${reservation.saleFlowId}/tasks/${task.id}/assignees`,
        { headers, data: { userId: user.id } },
      );
      expect(assigned.status(), await assigned.text()).toBeLessThan(300);
    }
    await page.goto(`/flujo-reservas/${reservation.saleFlowId}`);
    const row = page.getByRole('listitem', { name: task.name });
    const avatars = row.getByTestId('avatar-stack').locator('.mantine-Avatar-root');
    await expect(avatars).toHaveCount(2);
    const [first, second] = [await boxOf(avatars.nth(0)), await boxOf(avatars.nth(1))];
    expect(overlaps(first, second), JSON.stringify({ first, second })).toBe(false);
    await page.screenshot({ path: `.tmp/issue57-task-row-${size.width}.png`, fullPage: false });

    // The payment flow: 'Valor UF del …' stays inside its column, nothing runs into the next.
    const opened = await page.request.post(`/api/payments/${reservation.reservationId}/first-flow`, {
      headers,
    });
    expect(opened.status(), await opened.text()).toBeLessThan(300);
    await page.goto(`/pagos/flujo/${(await opened.json()).flowId}`);
    const item = page.getByTestId('payment-clp');
    const line = item.getByTestId('clp-uf-value');
    await expect(line).toContainText('Valor UF');
    const [itemBox, lineBox] = [await boxOf(item), await boxOf(line)];
    expect(lineBox.x + lineBox.width, JSON.stringify({ itemBox, lineBox })).toBeLessThanOrEqual(
      itemBox.x + itemBox.width + 0.5,
    );
    expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `.tmp/issue57-payment-${size.width}.png`, fullPage: false });
  });
}
