import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Deadline, deadlineText, overdueText } from './request-parts';

function renderDeadline(request: Parameters<typeof Deadline>[0]['request']) {
  return render(
    <MantineProvider>
      <Deadline request={request} />
    </MantineProvider>,
  );
}

describe('the countdown of a holder’s request', () => {
  it('says how many days are left, today, or how long ago it fell due', () => {
    expect(deadlineText(12)).toBe('Vence en 12 días');
    expect(deadlineText(1)).toBe('Vence en 1 día');
    expect(deadlineText(0)).toBe('Vence hoy');
    expect(deadlineText(-1)).toBe('Vencida hace 1 día');
    expect(deadlineText(-4)).toBe('Vencida hace 4 días');
    expect(overdueText(30)).toBe('Vencida hace 30 días');
  });

  it('shows the due date with the countdown, in red once the server says it is overdue', () => {
    renderDeadline({ dueDate: '2026-11-20', daysLeft: -3, isOverdue: true, status: 'in_progress' });
    expect(screen.getByText('20/11/2026')).toBeTruthy();
    const countdown = screen.getByTestId('deadline');
    expect(countdown.textContent).toBe('Vencida hace 3 días');
    expect(countdown.getAttribute('data-overdue')).toBe('true');
    expect(countdown.getAttribute('style')).toContain('var(--mantine-color-red-text)');
  });

  it('is not red while there is time left', () => {
    renderDeadline({ dueDate: '2026-12-10', daysLeft: 15, isOverdue: false, status: 'pending' });
    const countdown = screen.getByTestId('deadline');
    expect(countdown.textContent).toBe('Vence en 15 días');
    expect(countdown.getAttribute('data-overdue')).toBeNull();
    expect(countdown.getAttribute('style') ?? '').not.toContain('red');
  });

  it('shows only the date of a request already answered, however long ago it fell due', () => {
    renderDeadline({ dueDate: '2026-10-01', daysLeft: -55, isOverdue: false, status: 'answered' });
    expect(screen.getByText('01/10/2026')).toBeTruthy();
    expect(screen.queryByTestId('deadline')).toBeNull();
    expect(screen.queryByText(/Vencida/)).toBeNull();
  });
});
