import {
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowRight, IconAt, IconCheck, IconChecks } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { formatDateTime, formatInteger, formatPersonName } from '../../../shared/format';
import type { InboxMention, MentionStatus } from '../../../shared/schemas/notifications';
import { ErrorAlert } from '../../components/error-alert';
import { PersonAvatar } from '../../components/user-avatars';
import { highlightMentions } from '../sale-flows';
import { usePendingTaskCount } from './api';
import { mentionPathOf, useMarkAllMentionsRead, useMarkMentionRead, useMyMentions } from './mentions-api';
import { flowKindLabel } from './task-card';

const HEADING_ID = 'menciones';

/** Mentions per page on /notificaciones: the newest few above the tasks, 'Ver más' by pages. */
export const MENTIONS_SHOWN = 5;

const unreadLabel = (count: number) => `${formatInteger(count)} sin leer`;

/** Where the comment is: the flow and its stage, the reservation (kept on one line), the project. */
const whereOf = (mention: InboxMention) =>
  [
    `${flowKindLabel(mention)}, etapa ${mention.stageName}`,
    `Reserva\u00a0N°\u00a0${mention.reservationNumber}`,
    mention.projectName,
  ].join(' · ');

/**
 * One mention: who wrote, on which task of which flow, reservation and project, the comment (names
 * highlighted), when; an unread one stands out (a blue band, 'Nueva', the author in bold). 'Ver
 * comentario' opens the flow on the task's comments and marks it read; 'Marcar como leída' only marks.
 */
export function MentionCard({
  mention,
  marking,
  onRead,
}: {
  mention: InboxMention;
  marking: boolean;
  onRead: (commentId: string) => void;
}) {
  const unread = mention.readAt === null;
  // On an unread card's tint the dimmed grey falls short of AA: a darker grey (theme.ts).
  const quiet = unread ? 'gray.7' : 'dimmed';
  const author = mention.author ? formatPersonName(mention.author) : 'Un usuario eliminado';
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      role="listitem"
      aria-label={`${unread ? 'Sin leer: ' : ''}Mención de ${author} en ${mention.taskName}`}
      data-testid="mention"
      data-read={unread ? 'false' : 'true'}
      style={
        unread
          ? {
              background: 'var(--mantine-color-blue-0)',
              borderLeft: '4px solid var(--mantine-color-blue-6)',
            }
          : { borderLeft: '4px solid var(--mantine-color-gray-3)' }
      }
    >
      <Group align="flex-start" gap="sm" wrap="nowrap">
        {mention.author ? <PersonAvatar person={mention.author} size={32} /> : <Box w={32} aria-hidden />}
        <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
          <Group justify="space-between" align="flex-start" gap={4} wrap="wrap">
            <Text size="sm" style={{ minWidth: 0 }}>
              Mención de{' '}
              <Text span inherit fw={unread ? 700 : 600}>
                {author}
              </Text>{' '}
              en{' '}
              <Text span inherit fw={600}>
                {mention.taskName}
              </Text>
            </Text>
            <Group gap={6} wrap="nowrap">
              {unread ? (
                <Badge size="xs" color="blue" variant="filled" miw="max-content">
                  Nueva
                </Badge>
              ) : null}
              <Text component="time" dateTime={mention.createdAt} size="xs" c={quiet} miw="max-content">
                {formatDateTime(mention.createdAt)}
              </Text>
            </Group>
          </Group>
          <Text size="xs" c={quiet} data-testid="mention-where">
            {whereOf(mention)}
          </Text>
          <Text
            size="sm"
            lineClamp={4}
            c={unread ? undefined : 'dimmed'}
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="mention-content"
          >
            {highlightMentions(mention.content, mention.mentions)}
          </Text>
          <Group gap="xs" mt={2} wrap="wrap">
            <Button
              component={Link}
              to={mentionPathOf(mention)}
              size="compact-sm"
              variant={unread ? 'filled' : 'light'}
              rightSection={<IconArrowRight size={14} />}
              onClick={() => {
                if (unread) onRead(mention.commentId);
              }}
            >
              Ver comentario
            </Button>
            {unread ? (
              <Button
                size="compact-sm"
                variant="subtle"
                leftSection={<IconCheck size={14} />}
                loading={marking}
                onClick={() => onRead(mention.commentId)}
              >
                Marcar como leída
              </Button>
            ) : (
              <Text size="xs" c="dimmed">
                Leída el {formatDateTime(mention.readAt)}
              </Text>
            )}
          </Group>
        </Stack>
      </Group>
    </Paper>
  );
}

/**
 * /notificaciones 'Menciones' (issue 28 §3, decision 0030): the comments where someone wrote
 * '@Nombre Apellido' for the signed-in user, newest first, every one or the unread only, paged on
 * the server; the unread count (the bell's own); 'Marcar todas como leídas'.
 */
export function MentionsSection({ pageSize = MENTIONS_SHOWN }: { pageSize?: number }) {
  const [status, setStatus] = useState<MentionStatus>('all');
  const [page, setPage] = useState(1);
  const mentions = useMyMentions(status, page, pageSize);
  const unread = usePendingTaskCount().data?.mentions ?? 0;
  const markOne = useMarkMentionRead();
  const markAll = useMarkAllMentionsRead();
  const data = mentions.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / pageSize)) : 1;
  // Fewer pages than the one shown (mentions read under 'Sin leer', a comment deleted): the last one.
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);

  return (
    <section aria-labelledby={HEADING_ID} data-testid="mentions-section">
      <Group justify="space-between" align="center" gap="sm" mb="sm" wrap="wrap">
        <Group gap="sm" align="center" wrap="nowrap">
          <IconAt size={20} aria-hidden color="var(--mantine-color-blue-6)" />
          <Title order={3} size="h4" id={HEADING_ID}>
            Menciones
          </Title>
          {unread > 0 ? (
            <Badge variant="filled" color="blue" miw="max-content" data-testid="mentions-unread">
              {unreadLabel(unread)}
            </Badge>
          ) : null}
        </Group>
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            size="xs"
            aria-label="Mostrar menciones"
            value={status}
            onChange={(value) => {
              setStatus(value as MentionStatus);
              setPage(1);
            }}
            data={[
              { label: 'Todas', value: 'all' },
              { label: 'Sin leer', value: 'unread' },
            ]}
          />
          <Button
            size="xs"
            variant="light"
            leftSection={<IconChecks size={16} />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            Marcar todas como leídas
          </Button>
        </Group>
      </Group>
      <ErrorAlert error={mentions.error ?? markOne.error ?? markAll.error} />
      {!data ? (
        mentions.isPending ? (
          <Center py="md">
            <Loader size="sm" role="status" aria-label="Cargando menciones" />
          </Center>
        ) : null
      ) : data.rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {status === 'unread'
            ? 'No tiene menciones sin leer.'
            : 'Aún no tiene menciones. Cuando alguien escriba @ y su nombre en un comentario, aparecerá aquí.'}
        </Text>
      ) : (
        <>
          <VisuallyHidden>
            {`${formatInteger(data.total)} ${data.total === 1 ? 'mención' : 'menciones'}`}
          </VisuallyHidden>
          <Stack gap="xs" role="list" aria-label="Menciones">
            {data.rows.map((mention) => (
              <MentionCard
                key={mention.commentId}
                mention={mention}
                marking={markOne.isPending && markOne.variables === mention.commentId}
                onRead={(commentId) => markOne.mutate(commentId)}
              />
            ))}
          </Stack>
          {pages > 1 ? (
            <Group justify="space-between" align="center" mt="sm" gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed">
                {`${formatInteger((page - 1) * pageSize + 1)}–${formatInteger(
                  Math.min(page * pageSize, data.total),
                )} de ${data.totalIsCapped ? 'más de ' : ''}${formatInteger(data.total)}`}
              </Text>
              <Pagination
                size="sm"
                total={pages}
                value={page}
                onChange={setPage}
                getControlProps={(control) => ({
                  'aria-label': control === 'previous' ? 'Página anterior' : 'Página siguiente',
                })}
                getItemProps={(item) => ({ 'aria-label': `Página ${item}` })}
              />
            </Group>
          ) : null}
        </>
      )}
    </section>
  );
}
