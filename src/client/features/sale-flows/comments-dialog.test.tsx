import { Button } from '@mantine/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserOption } from '../../../shared/schemas/users';
import { forgetAllDrafts } from '../../lib/drafts';
import { renderWithProviders } from '../../test/render';
import { CommentsDialog, DRAFT_HINT } from './comments-dialog';

const KARLA: UserOption = {
  id: '00000000-0000-4000-8000-000000000002',
  firstName: 'Karla',
  lastName: 'Mendoza',
  position: 'KAM',
  userType: 'KAM',
  avatarUrl: null,
};
const TASK = '00000000-0000-4000-8000-0000000000a1';
const OTHER_TASK = '00000000-0000-4000-8000-0000000000a2';

afterEach(() => forgetAllDrafts());

/** A task's 'Comentarios' button and its popup, mounted only while open (as the stages section does). */
function Task({
  taskId,
  onSend,
}: {
  taskId: string;
  onSend: (content: string, ids: string[]) => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Comentarios de {taskId}</Button>
      {open ? (
        <CommentsDialog
          opened
          taskId={taskId}
          taskName="Promesa firmada"
          comments={[]}
          loading={false}
          loadError={null}
          users={[KARLA]}
          canDelete={false}
          error={null}
          sending={false}
          deletingId={null}
          onSend={onSend}
          onDelete={() => {}}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

/** Types `text` where the caret is, as a key press does. */
function typeAtCaret(area: HTMLTextAreaElement, text: string) {
  const at = area.selectionStart;
  const value = area.value.slice(0, at) + text + area.value.slice(area.selectionEnd);
  fireEvent.change(area, { target: { value } });
  area.setSelectionRange(at + text.length, at + text.length);
}

const box = () => screen.getByLabelText('Nuevo comentario') as HTMLTextAreaElement;
const dialog = () => screen.getByRole('dialog', { name: 'Comentarios' });

async function openComments(taskId = TASK) {
  fireEvent.click(screen.getByRole('button', { name: `Comentarios de ${taskId}` }));
  await screen.findByRole('dialog', { name: 'Comentarios' });
}

async function pressEscape() {
  fireEvent.keyDown(box(), { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comentarios' })).toBeNull());
}

describe('a comment typed and not sent (issue 28 §5)', () => {
  it('survives Escape and the close button: reopening the task’s comments shows it, its mention too', async () => {
    const onSend = vi.fn(async () => {});
    renderWithProviders(<Task taskId={TASK} onSend={onSend} />);
    await openComments();
    box().focus();
    typeAtCaret(box(), 'Revisar con @kar');
    fireEvent.click(screen.getByRole('option', { name: /Karla Mendoza/ }));
    typeAtCaret(box(), 'la promesa');
    expect(box().value).toBe('Revisar con @Karla Mendoza la promesa');
    expect(within(dialog()).getByText(new RegExp(DRAFT_HINT))).toBeTruthy();

    await pressEscape();
    await openComments();
    expect(box().value).toBe('Revisar con @Karla Mendoza la promesa');

    fireEvent.click(within(dialog()).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comentarios' })).toBeNull());
    await openComments();
    expect(box().value).toBe('Revisar con @Karla Mendoza la promesa');

    // Sent as typed, with the mention chosen before the popup was closed.
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Comentar' }));
    await waitFor(() => expect(box().value).toBe(''));
    expect(onSend).toHaveBeenCalledWith('Revisar con @Karla Mendoza la promesa', [KARLA.id]);
  });

  it('is forgotten once sent, and is kept per task', async () => {
    renderWithProviders(
      <>
        <Task taskId={TASK} onSend={async () => {}} />
        <Task taskId={OTHER_TASK} onSend={async () => {}} />
      </>,
    );
    await openComments(TASK);
    fireEvent.change(box(), { target: { value: 'Falta la firma del codeudor' } });
    await pressEscape();

    await openComments(OTHER_TASK);
    expect(box().value).toBe('');
    await pressEscape();

    await openComments(TASK);
    expect(box().value).toBe('Falta la firma del codeudor');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Comentar' }));
    await waitFor(() => expect(box().value).toBe(''));
    await pressEscape();
    await openComments(TASK);
    expect(box().value).toBe('');
  });

  it('stays, and stays kept, when the server refuses it', async () => {
    renderWithProviders(
      <Task
        taskId={TASK}
        onSend={async () => {
          throw new Error('El flujo fue cancelado');
        }}
      />,
    );
    await openComments();
    fireEvent.change(box(), { target: { value: 'Se envió dos veces' } });
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Comentar' }));
    await pressEscape();
    await openComments();
    expect(box().value).toBe('Se envió dos veces');
  });
});
