import { Alert, Button, Menu, Stack, Text } from '@mantine/core';
import {
  IconBraces,
  IconChevronDown,
  IconFileSpreadsheet,
  IconLock,
  IconLockOpen,
} from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { downloadOnClick } from '../../lib/download';
import { notifySaved } from '../../lib/notify';
import { holderExportHref, useLiftRestriction } from './api';
import { type HolderRestriction, restrictionLabels } from './request-parts';

/**
 * 'Datos del titular' of a client's screen (administrators): the holder's data export (Ley 21.719:
 * access and portability) as JSON or Excel, downloads the server records in the audit trail.
 */
export function HolderDataMenu({ clientId }: { clientId: string }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconChevronDown size={16} />}>
          Datos del titular
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          component="a"
          href={holderExportHref(clientId, 'json')}
          download
          onClick={downloadOnClick(holderExportHref(clientId, 'json'))}
          leftSection={<IconBraces size={16} />}
        >
          Exportar datos del titular (JSON)
        </Menu.Item>
        <Menu.Item
          component="a"
          href={holderExportHref(clientId, 'xlsx')}
          download
          onClick={downloadOnClick(holderExportHref(clientId, 'xlsx'))}
          leftSection={<IconFileSpreadsheet size={16} />}
        >
          Exportar datos del titular (Excel)
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

const RESTRICTION_TEXT: Record<HolderRestriction, string> = {
  opposition:
    'El titular se opuso al tratamiento de sus datos (Ley 21.719): las exportaciones de informes y aprobaciones muestran «Datos restringidos» en lugar de su nombre y RUT.',
  blocking:
    'Los datos de este cliente están bloqueados por una solicitud del titular (Ley 21.719): no se pueden modificar ni registrar nuevas reservas a su nombre hasta que un administrador levante el bloqueo.',
};

const LIFT_QUESTION: Record<HolderRestriction, string> = {
  opposition: '¿Levantar la oposición al tratamiento de',
  blocking: '¿Levantar el bloqueo de los datos de',
};

/**
 * A client under opposition or blocking: the mark, what it means and, for administrators, 'Levantar
 * restricción' (the holder withdrew it), after a confirmation.
 */
export function RestrictionAlert({
  clientId,
  clientName,
  restriction,
  reason,
  mayLift,
}: {
  clientId: string;
  clientName: string;
  restriction: HolderRestriction;
  /** What the holder gave as the reason, as the request recorded it. */
  reason: string | null;
  mayLift: boolean;
}) {
  const lift = useLiftRestriction(clientId);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Alert
        color={restriction === 'blocking' ? 'red' : 'orange'}
        icon={<IconLock size={18} />}
        title={restrictionLabels[restriction]}
        data-testid="restriction-alert"
      >
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{RESTRICTION_TEXT[restriction]}</Text>
          {reason ? (
            <Text size="sm" data-testid="restriction-reason">
              <b>Motivo:</b> {reason}
            </Text>
          ) : null}
          {mayLift ? (
            <Button
              size="xs"
              variant="white"
              color={restriction === 'blocking' ? 'red' : 'orange'}
              leftSection={<IconLockOpen size={14} />}
              onClick={() => {
                lift.reset();
                setConfirming(true);
              }}
            >
              Levantar restricción
            </Button>
          ) : null}
        </Stack>
      </Alert>
      <ConfirmDialog
        opened={confirming}
        title="Levantar restricción"
        confirmLabel="Levantar restricción"
        pendingLabel="Levantando..."
        confirmColor="blue"
        loading={lift.isPending}
        error={lift.error}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          lift.mutate(undefined, {
            onSuccess: () => {
              notifySaved('Restricción levantada');
              setConfirming(false);
            },
          })
        }
      >
        {LIFT_QUESTION[restriction]} {clientName}? Sus datos volverán a tratarse normalmente. Hágalo solo si
        el titular la retiró.
      </ConfirmDialog>
    </>
  );
}
