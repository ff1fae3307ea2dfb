import {
  ActionIcon,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  ScrollArea,
  Stack,
  Text,
  Textarea,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Fragment, type KeyboardEvent, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { foldForSearch } from '../../../shared/domain/search';
import { formatDateTime, formatPersonName } from '../../../shared/format';
import type { UserOption } from '../../../shared/schemas/users';
import type { FlowTaskCommentView } from '../../../shared/schemas/workflows';
import { ErrorAlert } from '../../components/error-alert';
import { PersonAvatar } from '../../components/user-avatars';
import { draftOf, forgetDraft, keepDraft } from '../../lib/drafts';

export const EMPTY_COMMENT_MESSAGE = 'El comentario es obligatorio';
export const MENTION_HINT = 'Escriba @ para mencionar a un usuario';
export const DRAFT_HINT = 'Si cierra, el borrador se conserva hasta que lo envíe';

/** A comment typed and not sent: its text and the users chosen in it. */
interface CommentDraft {
  text: string;
  mentioned: UserOption[];
}

/** Where a task's unsent comment is kept (lib/drafts: the tab's memory, until it is sent). */
export const commentDraftKey = (taskId: string) => `comment:${taskId}`;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A comment's text with each mention of a user it names ('@Ana Rojas') highlighted. */
export function highlightMentions(
  content: string,
  mentions: readonly { firstName: string; lastName: string }[],
) {
  const names = [...new Set(mentions.map((user) => `@${formatPersonName(user)}`))].sort(
    (a, b) => b.length - a.length,
  );
  if (names.length === 0) return content;
  const pattern = new RegExp(`(${names.map(escapeRegExp).join('|')})`, 'g');
  return content.split(pattern).map((part, index) =>
    names.includes(part) ? (
      <Text
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order.
        key={index}
        span
        fw={600}
        c="blue.8"
        bg="blue.0"
        px={2}
        style={{ borderRadius: 4 }}
        data-mention
      >
        {part}
      </Text>
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order.
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}

/** The '@…' being typed right before the caret, if any: its start and what follows the '@'. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)@([^\s@]*(?: [^\s@]*)?)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[1]!.length - 1, query: match[1]! };
}

/** The users a mention query names: every word of it starts a word of their name. */
export function mentionCandidates(users: readonly UserOption[], query: string, limit = 6): UserOption[] {
  const words = foldForSearch(query).split(/\s+/).filter(Boolean);
  return users
    .filter((user) => {
      const nameWords = foldForSearch(formatPersonName(user)).split(/\s+/);
      return words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)));
    })
    .slice(0, limit);
}

/**
 * A comment box where '@' opens a picker of the active users; the chosen user is written as
 * '@Nombre Apellido' and sent as mentioned (if their name is still in the text when sent). With a
 * `draftKey`, what is typed is kept while unsent: closing the popup (Escape, 'Cerrar') and opening
 * it again brings it back, mentions included; sending it forgets it.
 */
export function CommentComposer({
  users,
  saving,
  disabledReason,
  draftKey,
  onSend,
}: {
  users: readonly UserOption[];
  saving: boolean;
  /** Why no comment can be added now (a payment flow not started), or null. */
  disabledReason: string | null;
  /** Where the unsent text is kept ('commentDraftKey(task.id)'); none: it goes with the box. */
  draftKey?: string;
  onSend: (content: string, mentionedUserIds: string[]) => Promise<unknown>;
}) {
  const [draft] = useState(() => (draftKey ? draftOf<CommentDraft>(draftKey) : undefined));
  const [text, setTextState] = useState(draft?.text ?? '');
  const [mentioned, setMentioned] = useState<UserOption[]>(draft?.mentioned ?? []);
  const keep = (next: CommentDraft) => {
    if (!draftKey) return;
    if (next.text.trim() === '') forgetDraft(draftKey);
    else keepDraft<CommentDraft>(draftKey, next);
  };
  const setText = (next: string) => {
    setTextState(next);
    keep({ text: next, mentioned });
  };
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  /** Where the caret goes once the text with a chosen mention is on screen. */
  const caretAfterMention = useRef<number | null>(null);
  // Right after the commit, before the browser handles the next key: placed a frame later (as it
  // was), the keys typed meanwhile landed after the caret and the rest before them ('viernesantes del').
  useLayoutEffect(() => {
    const position = caretAfterMention.current;
    if (position === null) return;
    caretAfterMention.current = null;
    area.current?.focus();
    area.current?.setSelectionRange(position, position);
  });
  const candidates = query ? mentionCandidates(users, query.query) : [];
  const open = query !== null && candidates.length > 0;

  const follow = (value: string, caret: number) => {
    setQuery(mentionQueryAt(value, caret));
    setActive(0);
  };

  const choose = (user: UserOption) => {
    if (!query) return;
    const name = `@${formatPersonName(user)} `;
    const caret = area.current?.selectionStart ?? text.length;
    const next = text.slice(0, query.start) + name + text.slice(caret);
    const nextMentioned = mentioned.some((other) => other.id === user.id) ? mentioned : [...mentioned, user];
    setTextState(next);
    setMentioned(nextMentioned);
    keep({ text: next, mentioned: nextMentioned });
    setQuery(null);
    caretAfterMention.current = query.start + name.length;
  };

  const send = async () => {
    if (text.trim() === '') {
      setError(EMPTY_COMMENT_MESSAGE);
      return;
    }
    const ids = mentioned
      .filter((user) => text.includes(`@${formatPersonName(user)}`))
      .map((user) => user.id);
    try {
      await onSend(text, ids);
      setTextState('');
      setMentioned([]);
      if (draftKey) forgetDraft(draftKey);
      setError(null);
    } catch {
      // The dialog shows the server's message; what was typed stays.
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((current) => (current + step + candidates.length) % candidates.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        choose(candidates[active]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setQuery(null);
        return;
      }
    }
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <Stack gap="xs" pos="relative">
      <Textarea
        ref={area}
        label="Nuevo comentario"
        description={disabledReason ?? (text.trim() ? `${MENTION_HINT}. ${DRAFT_HINT}.` : MENTION_HINT)}
        placeholder="Escriba un comentario..."
        autosize
        minRows={2}
        maxRows={6}
        value={text}
        error={error}
        disabled={disabledReason !== null}
        aria-expanded={open}
        aria-controls={open ? 'mention-options' : undefined}
        aria-autocomplete="list"
        onChange={(event) => {
          const { value, selectionStart } = event.currentTarget;
          setText(value);
          if (error && value.trim()) setError(null);
          follow(value, selectionStart);
        }}
        onClick={(event) => follow(event.currentTarget.value, event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setQuery(null), 150)}
      />
      {open ? (
        <Paper
          withBorder
          shadow="md"
          radius="md"
          p={4}
          id="mention-options"
          role="listbox"
          aria-label="Usuarios para mencionar"
        >
          {candidates.map((user, index) => (
            <UnstyledButton
              key={user.id}
              role="option"
              aria-selected={index === active}
              w="100%"
              p={6}
              style={{
                borderRadius: 6,
                background: index === active ? 'var(--mantine-color-blue-0)' : undefined,
              }}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => choose(user)}
            >
              <Group gap="xs" wrap="nowrap">
                <PersonAvatar person={user} size={24} />
                <div>
                  <Text size="sm">{formatPersonName(user)}</Text>
                  <Text size="xs" c="dimmed">
                    {user.position}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          ))}
        </Paper>
      ) : null}
      <Group justify="flex-end">
        <Button onClick={() => void send()} loading={saving} disabled={disabledReason !== null}>
          Comentar
        </Button>
      </Group>
    </Stack>
  );
}

function CommentItem({
  comment,
  canDelete,
  deleting,
  onDelete,
}: {
  comment: FlowTaskCommentView;
  canDelete: boolean;
  deleting: boolean;
  onDelete: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const author = comment.author;
  return (
    <Paper withBorder radius="md" p="sm" role="listitem">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
          {author ? <PersonAvatar person={author} size={28} /> : null}
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={600}>
              {author ? formatPersonName(author) : 'Usuario eliminado'}
            </Text>
            <Text size="xs" c="dimmed">
              {formatDateTime(comment.createdAt)}
            </Text>
          </div>
        </Group>
        {canDelete ? (
          confirming ? (
            <Group gap={4} wrap="nowrap">
              <Button size="compact-xs" color="red" loading={deleting} onClick={onDelete}>
                Eliminar
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => setConfirming(false)}>
                No
              </Button>
            </Group>
          ) : (
            <Tooltip label="Eliminar comentario" withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                size="sm"
                aria-label="Eliminar comentario"
                onClick={() => setConfirming(true)}
              >
                <IconTrash size={14} />
              </ActionIcon>
            </Tooltip>
          )
        ) : null}
      </Group>
      <Text size="sm" mt={6} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {highlightMentions(comment.content, comment.mentions)}
      </Text>
    </Paper>
  );
}

/**
 * A task's comments (spec part 2 §2): oldest first, times in Santiago, 'No hay comentarios' when
 * none; a new one with '@' mentions, kept as a draft of the task while unsent (closing loses
 * nothing); deleted by whom the server allows (administrators).
 */
export function CommentsDialog({
  opened,
  taskId,
  taskName,
  comments,
  loading,
  loadError,
  users,
  canDelete,
  composeDisabledReason = null,
  error,
  sending,
  deletingId,
  onSend,
  onDelete,
  onClose,
}: {
  opened: boolean;
  /** The task's row id: its unsent comment is kept under it until sent. */
  taskId: string;
  taskName: string;
  comments: FlowTaskCommentView[] | undefined;
  loading: boolean;
  loadError: unknown;
  users: readonly UserOption[];
  /** The server lets the signed-in user delete comments. */
  canDelete: boolean;
  /** Why no comment can be added now, or null. */
  composeDisabledReason?: string | null;
  error: unknown;
  sending: boolean;
  deletingId: string | null;
  onSend: (content: string, mentionedUserIds: string[]) => Promise<unknown>;
  onDelete: (commentId: string) => void;
  onClose: () => void;
}): ReactNode {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={700}>Comentarios</Text>}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Tarea: <strong>{taskName}</strong>
        </Text>
        <ErrorAlert error={loadError ?? error} />
        {loading ? (
          <Group justify="center" py="md">
            <Loader size="sm" />
          </Group>
        ) : comments && comments.length > 0 ? (
          <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
            <Stack gap="xs" role="list" aria-label="Comentarios">
              {comments.map((comment) => (
                <CommentItem
                  key={comment.id}
                  comment={comment}
                  canDelete={canDelete}
                  deleting={deletingId === comment.id}
                  onDelete={() => onDelete(comment.id)}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        ) : (
          <Text c="dimmed" ta="center" py="md">
            No hay comentarios
          </Text>
        )}
        <CommentComposer
          users={users}
          saving={sending}
          disabledReason={composeDisabledReason}
          draftKey={commentDraftKey(taskId)}
          onSend={onSend}
        />
      </Stack>
    </Modal>
  );
}
