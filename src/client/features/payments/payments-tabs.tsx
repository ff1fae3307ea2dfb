import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { can } from '../../../shared/permissions';
import { paths } from '../../app/paths';
import { useCurrentUser } from '../../lib/session';

/**
 * Pagos' tabs around a screen: the payments list and 'Nómina de pago' (issue 33), shown to the
 * payments team and administrators — the same rule the server checks on every batch route. Each tab
 * is its own address; the other tab's panel stays empty.
 */
export function PaymentsTabs({ active, children }: { active: 'payments' | 'batches'; children: ReactNode }) {
  const user = useCurrentUser();
  const navigate = useNavigate();
  if (!can(user, 'paymentBatches.manage')) return children;
  return (
    <Tabs
      value={active}
      onChange={(value) => navigate(value === 'batches' ? paths.paymentBatches : paths.payments)}
    >
      <Tabs.List mb="md">
        <Tabs.Tab value="payments">Pagos</Tabs.Tab>
        <Tabs.Tab value="batches">Nómina de pago</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="payments">{active === 'payments' ? children : null}</Tabs.Panel>
      <Tabs.Panel value="batches">{active === 'batches' ? children : null}</Tabs.Panel>
    </Tabs>
  );
}
