import { Select } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { formatPersonName } from '../../../shared/format';
import { can } from '../../../shared/permissions';
import { PageHeader } from '../../components/page-header';
import { useCurrentUser } from '../../lib/session';
import { useUserOptions } from '../users/api';
import { FOLLOW_UP_URL, useFollowUp } from './inbox-api';
import { TaskInbox } from './task-inbox';

const ALL_USERS = '';
/** The chosen user lives in the address, so a reload or a shared link keeps it. */
const USER_PARAM = 'usuario';

/**
 * /seguimiento 'Mis Tareas Pendientes' (spec part 2 §2): for administrators every user's open
 * assigned tasks, filtered by user; anyone else who opens it sees their own (the server decides).
 */
export default function FollowUpPage() {
  const user = useCurrentUser();
  const seesEveryone = can(user, 'menu.followUp');
  const [params, setParams] = useSearchParams();
  const chosen = seesEveryone ? params.get(USER_PARAM) || null : null;
  const { data, isPending, error } = useFollowUp(chosen);
  const users = useUserOptions();
  const options = useMemo(
    () => [
      { value: ALL_USERS, label: 'Todos los usuarios' },
      ...(users.data ?? []).map((option) => ({
        value: option.id,
        label: `${formatPersonName(option)}${option.position ? ` · ${option.position}` : ''}`,
      })),
    ],
    [users.data],
  );
  const query = useMemo((): Record<string, string> => (chosen ? { userId: chosen } : {}), [chosen]);

  return (
    <>
      <PageHeader
        title="Mis Tareas Pendientes"
        description={
          seesEveryone
            ? 'Tareas abiertas asignadas en los flujos de venta y de pago, por etapa.'
            : 'Sus tareas abiertas de los flujos de venta y de pago, por etapa.'
        }
        actions={
          seesEveryone ? (
            <Select
              label="Usuario"
              data={options}
              value={chosen ?? ALL_USERS}
              onChange={(value) =>
                setParams(
                  (current) => {
                    const next = new URLSearchParams(current);
                    if (value) next.set(USER_PARAM, value);
                    else next.delete(USER_PARAM);
                    return next;
                  },
                  { replace: true },
                )
              }
              searchable
              allowDeselect={false}
              nothingFoundMessage="Sin resultados"
              w={{ base: '100%', sm: 320 }}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null
        }
      />
      <TaskInbox
        data={data}
        isPending={isPending}
        error={error}
        url={FOLLOW_UP_URL}
        query={query}
        showAssignee
        emptyText="No hay tareas pendientes"
      />
    </>
  );
}
