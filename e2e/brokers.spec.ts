import { expect, type Page, test } from '@playwright/test';
import { formatRut } from '../src/shared/domain/rut';
import { uniqueRut, uniqueText } from './fixtures';

function token(): string {
  return uniqueText('b').split(' ')[1]!;
}

const section = (page: Page, legend: string) => page.getByRole('group', { name: legend });

test.describe('brokers', () => {
  test('crea un broker, lo encuentra por su razón social y lo edita', async ({ page }) => {
    const word = token();
    const rut = uniqueRut();
    const representativeRut = uniqueRut();
    await page.goto('/brokers');
    await page.getByRole('link', { name: 'Nuevo Broker' }).click();
    await expect(page).toHaveURL(/\/brokers\/nuevo$/);

    // Nothing filled: every required field says so.
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(page.getByText('El nombre del broker es obligatorio')).toBeVisible();
    await expect(page.getByText('La razón social es obligatoria')).toBeVisible();
    await expect(page.getByText('El RUT del representante legal es obligatorio')).toBeVisible();
    await expect(page.getByText('El nombre del KAM es obligatorio')).toBeVisible();

    const company = section(page, 'Empresa');
    await company.getByRole('textbox', { name: 'RUT', exact: true }).fill(rut.replace('-', ''));
    await company.getByRole('textbox', { name: 'Nombre', exact: true }).fill(`Andes ${word}`);
    await expect(company.getByRole('textbox', { name: 'RUT', exact: true })).toHaveValue(formatRut(rut));
    await company.getByLabel('Razón Social').fill(`Inversiones Cordillera ${word} SpA`);
    await company.getByLabel('Fecha de Constitución').fill('20/05/2012');
    await page.keyboard.press('Escape');
    await company.getByLabel('Notaría de Constitución').fill('Notaría Avello');

    const legal = section(page, 'Representante Legal');
    await legal.getByLabel('Nombre del Representante Legal').fill('Rodrigo Fuentes');
    await legal.getByLabel('RUT del Representante Legal').fill(representativeRut);

    const commercial = section(page, 'Comercial');
    await commercial.getByLabel('Dirección Comercial').fill('Av. Providencia 1234');
    await commercial.getByLabel('Comuna').fill('Providencia');
    await commercial.getByLabel('Nombre del Contacto Comercial').fill('Paula Vidal');
    await commercial.getByLabel('Correo Electrónico').fill(`paula.${word}@andes.cl`);

    await section(page, 'Contacto de Finanzas')
      .getByRole('textbox', { name: 'Nombre', exact: true })
      .fill('Fernanda Ruiz');
    const kam = section(page, 'KAM');
    await kam.getByLabel('Nombre del KAM').fill('Karla Mendoza');
    await kam.getByLabel('Correo Electrónico').fill('kam@');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await expect(kam.getByText('Ingrese un correo electrónico válido')).toBeVisible();
    await kam.getByLabel('Correo Electrónico').fill(`kam.${word}@andes.cl`);
    await kam.getByRole('switch', { name: 'El KAM recibe comisión' }).check();
    await page.getByRole('button', { name: 'Guardar' }).click();

    await expect(page.getByText('Broker creado')).toBeVisible();
    await expect(page).toHaveURL(/\/brokers$/);

    await page.getByPlaceholder('Buscar por nombre, RUT o razón social').fill(`cordillera ${word}`);
    await expect(page).toHaveURL(/[?&]q=/);
    const row = page.getByRole('row').filter({ hasText: `Andes ${word}` });
    await expect(row).toContainText(formatRut(rut));
    await expect(row).toContainText(`Inversiones Cordillera ${word} SpA`);
    await expect(row).toContainText('Karla Mendoza');
    await expect(row.getByRole('img', { name: 'El KAM recibe comisión' })).toBeVisible();

    await row.getByRole('link', { name: `Editar Andes ${word}` }).click();
    await expect(page.getByRole('heading', { name: 'Editar Broker' })).toBeVisible();
    await expect(
      section(page, 'Contacto de Finanzas').getByRole('textbox', { name: 'Nombre', exact: true }),
    ).toHaveValue('Fernanda Ruiz');
    await section(page, 'Empresa')
      .getByRole('textbox', { name: 'Nombre', exact: true })
      .fill(`Andes Propiedades ${word}`);
    await expect(section(page, 'KAM').getByRole('switch', { name: 'El KAM recibe comisión' })).toBeChecked();
    await section(page, 'KAM').getByRole('switch', { name: 'El KAM recibe comisión' }).uncheck();
    await page.getByRole('button', { name: 'Guardar' }).click();

    await expect(page.getByText('Broker actualizado')).toBeVisible();
    const edited = page.getByRole('row').filter({ hasText: `Andes Propiedades ${word}` });
    await expect(edited).toBeVisible();
    await expect(edited.getByRole('img', { name: 'El KAM no recibe comisión' })).toBeVisible();
  });

  test('rechaza el RUT de otro broker con un mensaje claro', async ({ page }) => {
    await page.goto('/brokers');
    const word = token();
    const rut = uniqueRut();
    const response = await page.request.post('/api/brokers', {
      headers: { origin: new URL(page.url()).origin },
      data: {
        rut,
        name: `Existente ${word}`,
        businessName: `Existente ${word} Ltda`,
        constitutionDate: '2010-01-01',
        constitutionNotary: 'Notaría Uno',
        legalRepresentative: 'Ana Soto',
        legalRepresentativeRut: uniqueRut(),
        commercialAddress: 'Calle 1',
        commercialAddressCommune: 'Santiago',
        commercialContactName: 'Luis Díaz',
        kamName: 'Pedro Kam',
      },
    });
    expect(response.status()).toBe(201);
    const existing = (await response.json()).broker as { id: string };

    await page.goto(`/brokers/editar/${existing.id}`);
    await expect(section(page, 'Empresa').getByRole('textbox', { name: 'Nombre', exact: true })).toHaveValue(
      `Existente ${word}`,
    );
    await page.goto('/brokers/nuevo');
    const company = section(page, 'Empresa');
    await company.getByRole('textbox', { name: 'RUT', exact: true }).fill(formatRut(rut));
    await company.getByRole('textbox', { name: 'Nombre', exact: true }).fill(`Copia ${word}`);
    await company.getByLabel('Razón Social').fill(`Copia ${word} Ltda`);
    await company.getByLabel('Fecha de Constitución').fill('01/01/2011');
    await page.keyboard.press('Escape');
    await company.getByLabel('Notaría de Constitución').fill('Notaría Dos');
    await section(page, 'Representante Legal').getByLabel('Nombre del Representante Legal').fill('Eva Lagos');
    await section(page, 'Representante Legal').getByLabel('RUT del Representante Legal').fill(uniqueRut());
    await section(page, 'Comercial').getByLabel('Dirección Comercial').fill('Calle 2');
    await section(page, 'Comercial').getByLabel('Comuna').fill('Ñuñoa');
    await section(page, 'Comercial').getByLabel('Nombre del Contacto Comercial').fill('Tomás Ríos');
    await section(page, 'KAM').getByLabel('Nombre del KAM').fill('Karla Mendoza');
    await page.getByRole('button', { name: 'Guardar' }).click();

    await expect(
      page.getByRole('alert').filter({ hasText: 'Ya existe un broker con este RUT' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/brokers\/nuevo$/);
    await expect(company.getByRole('textbox', { name: 'Nombre', exact: true })).toHaveValue(`Copia ${word}`);
  });
});

/** Creates a broker through the API with the page's session. */
async function createBrokerByApi(
  page: Page,
  values: { name: string; businessName: string; kamName: string; kamReceivesCommission?: boolean },
) {
  const response = await page.request.post('/api/brokers', {
    headers: { origin: new URL(page.url()).origin },
    data: {
      rut: uniqueRut(),
      constitutionDate: '2015-03-01',
      constitutionNotary: 'Notaría Uno',
      legalRepresentative: 'Ana Soto',
      legalRepresentativeRut: uniqueRut(),
      commercialAddress: 'Calle 1',
      commercialAddressCommune: 'Santiago',
      commercialContactName: 'Luis Díaz',
      ...values,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe('lista de brokers', () => {
  test('filtra por KAM y por su comisión, ordena por razón social y la dirección lo guarda', async ({
    page,
  }) => {
    await page.goto('/brokers');
    const word = token();
    const kam = `Kam ${word}`;
    await createBrokerByApi(page, { name: `Norte ${word}`, businessName: `Beta ${word} SpA`, kamName: kam });
    await createBrokerByApi(page, {
      name: `Sur ${word}`,
      businessName: `Alfa ${word} SpA`,
      kamName: kam,
      kamReceivesCommission: true,
    });
    await page.reload();

    await page.getByRole('combobox', { name: 'KAM', exact: true }).fill(word);
    await page.getByRole('option', { name: kam }).click();
    await expect(page).toHaveURL(/kam=/);
    const rows = page.getByRole('row').filter({ hasText: word });
    await expect(rows).toHaveText([/Norte/, /Sur/]);

    await page
      .getByRole('columnheader', { name: /^Razón Social/ })
      .getByRole('button')
      .click();
    await expect(rows).toHaveText([/Alfa/, /Beta/]);
    await expect(page).toHaveURL(/orden=businessName&dir=asc/);

    await page.getByRole('combobox', { name: 'Comisión KAM' }).click();
    await page.getByRole('option', { name: 'Recibe comisión', exact: true }).click();
    await expect(rows).toHaveText([/Sur/]);

    // The address keeps the filters and the order.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'KAM', exact: true })).toHaveValue(kam);
    await expect(page.getByRole('combobox', { name: 'Comisión KAM' })).toHaveValue('Recibe comisión');
    await expect(rows).toHaveText([/Sur/]);

    await page.getByRole('button', { name: 'Limpiar filtros' }).click();
    await expect(page).not.toHaveURL(/kam=/);
    await expect(page.getByRole('combobox', { name: 'KAM', exact: true })).toHaveValue('');
    await expect(page).toHaveURL(/orden=businessName/);
  });

  test('en un teléfono los brokers son tarjetas y los filtros se despliegan con «Filtros»', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/brokers');
    const cards = page.getByRole('list', { name: 'Brokers' }).getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'KAM', exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Filtros' }).click();
    await page.getByRole('combobox', { name: 'Comisión KAM' }).click();
    await page.getByRole('option', { name: 'Recibe comisión', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Filtros (1)' })).toBeVisible();
    await expect(cards.first().getByRole('img', { name: 'El KAM recibe comisión' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
