import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import {
  DISCOUNT_NEGATIVE_MESSAGE,
  DISCOUNT_TOO_LARGE_MESSAGE,
  DISCOUNT_UNREADABLE_MESSAGE,
} from '../../components/money-input';
import { stockKeys } from '../stock/keys';
import {
  emptyReservationValues,
  previewFigures,
  ReservationForm,
  type ReservationFormValues,
  reservationBody,
} from './reservation-form';

const CLIENT = '00000000-0000-4000-8000-000000000001';

describe('the reservation form as a request', () => {
  it('sends discounts typed as percent as fractions, and empty amounts as zero', () => {
    const values = {
      ...emptyReservationValues(null, '2026-11-21'),
      reservationNumber: 'R-1',
      projectId: '00000000-0000-4000-8000-000000000002',
      apartmentNumber: '1204',
      apartmentPrice: 3000,
      parkingPrice: '',
      columnDiscount: 5,
      additionalDiscount: 2.5,
      otherDiscount: '',
    };
    const body = reservationBody(values, CLIENT);
    expect(body).toMatchObject({
      clientId: CLIENT,
      apartmentPrice: '3000',
      parkingPrice: '0',
      columnDiscount: '0.050000',
      additionalDiscount: '0.025000',
      otherDiscount: '0.000000',
      parkingNumber: null,
      brokerId: null,
    });
    // 3000 × 0.95 × 0.975 = 2778.75
    expect(previewFigures(values)?.minimumPrice).toBe('2778.75');
  });

  it('never sends a broker for a sale without broker', () => {
    const values = {
      ...emptyReservationValues(null, '2026-11-21'),
      isWithBroker: false,
      brokerId: '00000000-0000-4000-8000-000000000003',
    };
    expect(reservationBody(values, CLIENT).brokerId).toBeNull();
  });

  it('leaves a missing apartment price empty so the schema can say so, and previews zero meanwhile', () => {
    const values = emptyReservationValues('00000000-0000-4000-8000-000000000004', '2026-11-21');
    expect(reservationBody(values, CLIENT)).toMatchObject({ apartmentPrice: '', sellerId: values.sellerId });
    expect(previewFigures(values)?.minimumPrice).toBe('0.00');
  });
});

const PROJECT = '00000000-0000-4000-8000-000000000002';

/** The form filled but for its discounts, in a data router (its leave guard needs one). */
function renderForm(
  onSubmit: (values: ReservationFormValues) => void,
  {
    failure = null,
    maxColumnDiscount = null,
  }: { failure?: string | null; maxColumnDiscount?: string | null } = {},
) {
  const initialValues = {
    ...emptyReservationValues(null, '2026-11-21'),
    reservationNumber: 'R-1',
    projectId: PROJECT,
    apartmentNumber: '1204',
    apartmentPrice: 3000,
  };
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <ReservationForm
          initialValues={initialValues}
          clientId={CLIENT}
          options={{
            projects: [{ id: PROJECT, name: 'Edificio Los Aromos', stage: 'Etapa 1' }],
            sellers: [],
            defaultSellerId: null,
          }}
          initialBroker={null}
          saving={false}
          failure={failure}
          fieldErrors={{}}
          submitLabel="Crear Reserva"
          onSubmit={onSubmit}
          onCancel={() => {}}
        />
      ),
    },
  ]);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // What the server says the project's commercial policy is.
  queryClient.setQueryData(stockKeys.policy(PROJECT), {
    policy: {
      reservationAmount: null,
      maxColumnDiscount,
      maxAdditionalDiscount: null,
      maxOtherDiscount: null,
      maxSubsidyFraction: null,
      version: maxColumnDiscount ? 1 : null,
    },
  });
  const scrolled = vi.fn();
  Element.prototype.scrollIntoView = scrolled;
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

describe('the commercial policy on the form (issue 57)', () => {
  it('warns while a discount typed exceeds the maximum the server says, and not within it', () => {
    renderForm(vi.fn(), { maxColumnDiscount: '0.050000' });
    fireEvent.change(field('Descuento columna'), { target: { value: '8' } });
    expect(screen.getByTestId('policy-warning-columnDiscount').textContent).toBe(
      'Excede la política comercial del proyecto (máximo 5 %)',
    );
    fireEvent.change(field('Descuento columna'), { target: { value: '5' } });
    expect(screen.queryByTestId('policy-warning-columnDiscount')).toBeNull();
    // Another discount, with no maximum, never warns.
    fireEvent.change(field('Descuento adicional'), { target: { value: '40' } });
    expect(screen.queryByTestId('policy-warning-additionalDiscount')).toBeNull();
  });

  it('brings the refusal into view and focuses it, wherever the user pressed the button', () => {
    const refusal =
      'La reserva excede la política comercial del proyecto: descuento columna 8 % (máximo 5 %).';
    renderForm(vi.fn(), { failure: refusal });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(refusal);
    expect(document.activeElement).toBe(alert);
    expect(Element.prototype.scrollIntoView).toHaveBeenCalledWith({ block: 'center', behavior: 'smooth' });
  });
});

describe('the reservation form’s discounts (issue 28 §5)', () => {
  it('keeps 150 and -10 as typed, says why each is wrong, and does not save', async () => {
    const onSubmit = vi.fn();
    renderForm(onSubmit);
    fireEvent.change(field('Descuento columna'), { target: { value: '150' } });
    fireEvent.change(field('Descuento adicional'), { target: { value: '-10' } });
    fireEvent.blur(field('Descuento columna'));
    fireEvent.blur(field('Descuento adicional'));
    expect(screen.getByText(DISCOUNT_TOO_LARGE_MESSAGE)).toBeTruthy();
    expect(screen.getByText(DISCOUNT_NEGATIVE_MESSAGE)).toBeTruthy();
    // No minimum price is made of them (3000 × −0.5 × 1.1 would be −1650).
    expect(screen.getByTestId('minimum-price').textContent).toBe('—');
    expect(screen.getByTestId('total-price').textContent).toBe('UF 3.000,00');

    fireEvent.click(screen.getByRole('button', { name: 'Crear Reserva' }));
    await waitFor(() => expect(field('Descuento columna').getAttribute('aria-invalid')).toBe('true'));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(field('Descuento columna').value).toBe('150');
    expect(field('Descuento adicional').value).toBe('-10');
    expect(screen.getByText(DISCOUNT_TOO_LARGE_MESSAGE)).toBeTruthy();
    expect(screen.getByText(DISCOUNT_NEGATIVE_MESSAGE)).toBeTruthy();
  });

  it('saves once the discounts are back between 0 % and 100 %', async () => {
    const onSubmit = vi.fn();
    renderForm(onSubmit);
    fireEvent.change(field('Descuento columna'), { target: { value: '150' } });
    fireEvent.click(screen.getByRole('button', { name: 'Crear Reserva' }));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(field('Descuento columna'), { target: { value: '15' } });
    expect(screen.queryByText(DISCOUNT_TOO_LARGE_MESSAGE)).toBeNull();
    expect(screen.getByTestId('minimum-price').textContent).toBe('UF 2.550,00');
    fireEvent.click(screen.getByRole('button', { name: 'Crear Reserva' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(reservationBody(onSubmit.mock.calls[0]![0], CLIENT).columnDiscount).toBe('0.150000');
  });

  it('sends text that is no number yet as typed, for the schema to refuse, and never throws', () => {
    const values = { ...emptyReservationValues(null, '2026-11-21'), otherDiscount: '-' };
    expect(reservationBody(values, CLIENT).otherDiscount).toBe('-');
    expect(previewFigures(values)).toBeNull();
    expect(reservationBody({ ...values, otherDiscount: 150 }, CLIENT).otherDiscount).toBe('1.500000');
    expect(reservationBody({ ...values, otherDiscount: -10 }, CLIENT).otherDiscount).toBe('-0.100000');
    expect(DISCOUNT_UNREADABLE_MESSAGE).toBe('Ingrese un descuento válido entre 0 % y 100 %');
  });
});
