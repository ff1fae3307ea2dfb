import { expect, type Page, test } from '@playwright/test';
import { formatRut, rutCheckDigit } from '../src/shared/domain/rut';
import { ACCOUNTS, SIGNED_OUT, signIn, uniqueRut, uniqueText } from './fixtures';

/** A word no other journey uses, to find our own rows on the shared server. */
function token(): string {
  return uniqueText('c').split(' ')[1]!;
}

/** Creates a client through the API with the page's session (the app's own origin). */
async function createClientByApi(page: Page, values: { rut: string; firstName: string; lastName: string }) {
  const response = await page.request.post('/api/clients', {
    headers: { origin: new URL(page.url()).origin },
    data: { ...values, birthDate: '1980-01-15' },
  });
  expect(response.status()).toBe(201);
  return (await response.json()).client as { id: string; version: number };
}

async function searchClients(page: Page, text: string) {
  await page.getByPlaceholder('Buscar por RUT, nombres o apellidos').fill(text);
  await expect(page).toHaveURL(/[?&]q=/);
}

test.describe('clientes', () => {
  test('crea un cliente, lo encuentra por su nombre completo y lo edita', async ({ page }) => {
    const word = token();
    const rut = uniqueRut();
    await page.goto('/clientes');
    await page.getByRole('link', { name: 'Nuevo Cliente' }).click();
    await expect(page).toHaveURL(/\/clientes\/nuevo$/);
    await expect(page.getByRole('heading', { name: 'Nuevo Cliente' })).toBeVisible();

    // The RUT is typed without dots or dash and shown formatted when the user leaves the field.
    await page.getByRole('textbox', { name: 'RUT', exact: true }).fill(rut.replace('-', ''));
    await page.getByLabel('Nombres').fill('Juan');
    await expect(page.getByRole('textbox', { name: 'RUT', exact: true })).toHaveValue(formatRut(rut));
    await page.getByLabel('Apellidos').fill(`Pérez ${word}`);
    await page.getByLabel('Fecha de Nacimiento').fill('12/04/1985');
    await page.keyboard.press('Escape');
    await page.getByLabel('Teléfono').fill('+56 9 1234 5678');
    await page.getByLabel('Correo Electrónico').fill(`juan.${word}@ejemplo.cl`);
    await page.getByRole('button', { name: 'Guardar' }).click();

    await expect(page.getByText('Cliente creado')).toBeVisible();
    await expect(page).toHaveURL(/\/clientes$/);

    // Found by the full name as one string, accents and case aside.
    await searchClients(page, `juan perez ${word.toUpperCase()}`);
    const row = page.getByRole('row').filter({ hasText: formatRut(rut) });
    await expect(row).toContainText(`Juan Pérez ${word}`);
    await expect(row).toContainText('12/04/1985');
    await expect(row).toContainText(`juan.${word}@ejemplo.cl`);
    await expect(page.getByText('Mostrando 1–1 de 1')).toBeVisible();

    // The search lives in the URL: a reload keeps it.
    await page.reload();
    await expect(page.getByPlaceholder('Buscar por RUT, nombres o apellidos')).toHaveValue(
      `juan perez ${word.toUpperCase()}`,
    );
    await expect(page.getByRole('row').filter({ hasText: formatRut(rut) })).toBeVisible();

    await page.getByRole('link', { name: `Editar a Juan Pérez ${word}` }).click();
    await expect(page.getByRole('heading', { name: 'Editar Cliente' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'RUT', exact: true })).toHaveValue(formatRut(rut));
    await expect(page.getByLabel('Fecha de Nacimiento')).toHaveValue('12/04/1985');
    await page.getByLabel('Teléfono').fill('+56 2 2987 6543');
    await page.getByRole('button', { name: 'Guardar' }).click();

    await expect(page.getByText('Cliente actualizado')).toBeVisible();
    // Back to the same search.
    await expect(page).toHaveURL(/\/clientes\?q=/);
    await expect(page.getByRole('row').filter({ hasText: formatRut(rut) })).toContainText('+56 2 2987 6543');
  });

  test('rechaza un RUT de otro cliente con su mensaje y conserva lo escrito', async ({ page }) => {
    await page.goto('/clientes');
    const rut = uniqueRut();
    await createClientByApi(page, { rut, firstName: 'Existente', lastName: token() });

    await page.goto('/clientes/nuevo');
    await page.getByRole('textbox', { name: 'RUT', exact: true }).fill(formatRut(rut));
    await page.getByLabel('Nombres').fill('Otra');
    await page.getByLabel('Apellidos').fill('Persona');
    await page.getByLabel('Fecha de Nacimiento').fill('01/02/1990');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Guardar' }).click();

    await expect(
      page.getByRole('alert').filter({ hasText: 'Ya existe un cliente con este RUT' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/clientes\/nuevo$/);
    await expect(page.getByRole('textbox', { name: 'RUT', exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(page.getByLabel('Nombres')).toHaveValue('Otra');
    await expect(page.getByLabel('Apellidos')).toHaveValue('Persona');
    await expect(page.getByLabel('Fecha de Nacimiento')).toHaveValue('01/02/1990');
  });

  test('valida en español antes de enviar, incluido el dígito verificador', async ({ page }) => {
    await page.goto('/clientes/nuevo');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('El RUT es obligatorio')).toBeVisible();
    await expect(page.getByText('Los nombres son obligatorios')).toBeVisible();
    await expect(page.getByText('Los apellidos son obligatorios')).toBeVisible();
    await expect(page.getByText('La fecha de nacimiento es obligatoria')).toBeVisible();

    await page.getByRole('textbox', { name: 'RUT', exact: true }).fill('12.345.678-K');
    await page.getByLabel('Correo Electrónico').fill('no-es-correo');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('El RUT no es válido (revise el dígito verificador)')).toBeVisible();
    await expect(page.getByText('Ingrese un correo electrónico válido')).toBeVisible();
    await expect(page).toHaveURL(/\/clientes\/nuevo$/);
  });

  test('una fecha de nacimiento imposible o futura se explica y no se borra', async ({ page }) => {
    await page.goto('/clientes/nuevo');
    const birthDate = page.getByLabel('Fecha de Nacimiento');
    await birthDate.fill('31/02/1980');
    await page.getByLabel('Nombres').click();
    await expect(
      page.getByText('Fecha no válida: escríbala como dd/mm/aaaa (por ejemplo 31/01/1980)'),
    ).toBeVisible();
    await expect(birthDate).toHaveValue('31/02/1980');
    await birthDate.fill('01/01/2090');
    await page.getByLabel('Nombres').click();
    await expect(page.getByText(/La fecha no puede ser posterior al \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  });

  test('avisa cuando otro usuario modificó el cliente y conserva lo escrito', async ({ page }) => {
    await page.goto('/clientes');
    const word = token();
    const rut = uniqueRut();
    const client = await createClientByApi(page, { rut, firstName: 'Versión', lastName: word });
    await page.goto(`/clientes/editar/${client.id}`);
    await expect(page.getByLabel('Nombres')).toHaveValue('Versión');

    // Someone else saves first.
    const other = await page.request.put(`/api/clients/${client.id}`, {
      headers: { origin: new URL(page.url()).origin },
      data: {
        rut,
        firstName: 'Otro Usuario',
        lastName: word,
        birthDate: '1980-01-15',
        version: client.version,
      },
    });
    expect(other.status()).toBe(200);

    await page.getByLabel('Nombres').fill('Mi Cambio');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'El registro fue modificado por otro usuario. Recargue la página.' }),
    ).toBeVisible();
    await expect(page.getByLabel('Nombres')).toHaveValue('Mi Cambio');
  });

  test('el administrador elimina un cliente tras confirmar y deja de verlo', async ({ page }) => {
    await page.goto('/clientes');
    const word = token();
    await createClientByApi(page, { rut: uniqueRut(), firstName: 'Eliminable', lastName: word });
    await searchClients(page, word);
    await expect(page.getByRole('row').filter({ hasText: word })).toBeVisible();

    await page.getByRole('button', { name: `Eliminar a Eliminable ${word}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Eliminar cliente' });
    await expect(dialog).toContainText(`¿Eliminar a Eliminable ${word}`);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('row').filter({ hasText: word })).toBeVisible();

    await page.getByRole('button', { name: `Eliminar a Eliminable ${word}` }).click();
    await page
      .getByRole('dialog', { name: 'Eliminar cliente' })
      .getByRole('button', { name: 'Eliminar' })
      .click();
    await expect(page.getByText(`Cliente Eliminable ${word} eliminado`)).toBeVisible();
    await expect(page.getByText('Ningún cliente coincide con la búsqueda')).toBeVisible();
  });
});

test.describe('lista de clientes', () => {
  /** The names of the rows that carry `word`, top to bottom. */
  const namesOf = (page: Page, word: string) => page.getByRole('row').filter({ hasText: word });

  test('ordena por nombre y por RUT en el servidor, y la dirección guarda el orden', async ({ page }) => {
    await page.goto('/clientes');
    const word = token();
    // RUTs whose number order differs from their text order: 9.xxx.xxx < 10.xxx.xxx < 20.xxx.xxx.
    const rutOf = (base: number) => {
      const body = String(base + Math.floor(Math.random() * 900_000));
      return `${body}-${rutCheckDigit(body)}`;
    };
    // Created in this order: the list shows the newest first.
    await createClientByApi(page, { rut: rutOf(10_000_000), firstName: 'Zoe', lastName: word });
    await createClientByApi(page, { rut: rutOf(20_000_000), firstName: 'Ana', lastName: word });
    await createClientByApi(page, { rut: rutOf(9_000_000), firstName: 'Marta', lastName: word });
    await searchClients(page, word);
    const rows = namesOf(page, word);
    await expect(rows).toHaveText([/Marta/, /Ana/, /Zoe/]);

    // The column's header is a button, which also says the order to screen readers.
    const header = page.getByRole('columnheader', { name: /^Nombre Completo/ }).getByRole('button');
    await header.click();
    await expect(rows).toHaveText([/Ana/, /Marta/, /Zoe/]);
    await expect(page).toHaveURL(/orden=fullName&dir=asc/);
    await expect(header).toHaveAccessibleName(/Nombre Completo.*orden ascendente/);
    await header.click();
    await expect(rows).toHaveText([/Zoe/, /Marta/, /Ana/]);
    await expect(page).toHaveURL(/orden=fullName&dir=desc/);

    // The address keeps the search and the order.
    await page.reload();
    await expect(rows).toHaveText([/Zoe/, /Marta/, /Ana/]);
    await expect(page.getByPlaceholder('Buscar por RUT, nombres o apellidos')).toHaveValue(word);

    // A third click goes back to the spec's order, newest first.
    await header.click();
    await expect(rows).toHaveText([/Marta/, /Ana/, /Zoe/]);
    await expect(page).not.toHaveURL(/orden=/);

    // By RUT: in number order (as text, 9.xxx.xxx would come last).
    await page.getByRole('columnheader', { name: /^RUT/ }).getByRole('button').click();
    await expect(page).toHaveURL(/orden=rut&dir=asc/);
    await expect(rows).toHaveText([/Marta/, /Zoe/, /Ana/]);
  });

  test('cambia las filas por página y la dirección las guarda', async ({ page }) => {
    await page.goto('/clientes');
    await expect(page.getByRole('table', { name: 'Clientes' }).locator('tbody tr')).toHaveCount(25);
    await page.getByLabel('Filas por página').selectOption('10');
    await expect(page).toHaveURL(/porPagina=10/);
    await expect(page.getByRole('table', { name: 'Clientes' }).locator('tbody tr')).toHaveCount(10);
    await expect(page.getByText(/^Mostrando 1–10 de /)).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Filas por página')).toHaveValue('10');
    await expect(page.getByRole('table', { name: 'Clientes' }).locator('tbody tr')).toHaveCount(10);
  });

  test('en un teléfono los clientes son tarjetas, ordenadas con «Ordenar por»', async ({ page }) => {
    await page.goto('/clientes');
    const word = token();
    for (const firstName of ['Bruno', 'Amalia']) {
      await createClientByApi(page, { rut: uniqueRut(), firstName, lastName: word });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/clientes?q=${word}`);
    const cards = page.getByRole('list', { name: 'Clientes' }).getByRole('listitem');
    await expect(cards).toHaveText([/Amalia/, /Bruno/]);
    await page.getByLabel('Ordenar por').selectOption({ label: 'Nombre Completo ↓' });
    await expect(cards).toHaveText([/Bruno/, /Amalia/]);
    await expect(page).toHaveURL(/orden=fullName&dir=desc/);
    await expect(cards.first().getByRole('link', { name: `Editar a Bruno ${word}` })).toBeInViewport();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});

test.describe('clientes para quien no es administrador', () => {
  test.use(SIGNED_OUT);

  test('un KAM ve y edita clientes, pero no puede eliminarlos', async ({ page }) => {
    await signIn(page, ACCOUNTS.kam);
    const word = token();
    await createClientByApi(page, { rut: uniqueRut(), firstName: 'Protegido', lastName: word });
    await page.goto('/clientes');
    await searchClients(page, word);
    await expect(page.getByRole('link', { name: `Editar a Protegido ${word}` })).toBeVisible();
    await expect(page.getByRole('button', { name: /^Eliminar a/ })).toHaveCount(0);
  });
});
