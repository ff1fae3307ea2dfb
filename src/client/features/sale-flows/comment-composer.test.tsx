import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { UserOption } from '../../../shared/schemas/users';
import { renderWithProviders } from '../../test/render';
import { CommentComposer } from './comments-dialog';

const KARLA: UserOption = {
  id: '00000000-0000-4000-8000-000000000002',
  firstName: 'Karla',
  lastName: 'Mendoza',
  position: 'KAM',
  userType: 'KAM',
  avatarUrl: null,
};

/** Types `text` where the caret is, as a key press does. */
function typeAtCaret(box: HTMLTextAreaElement, text: string) {
  const at = box.selectionStart;
  const value = box.value.slice(0, at) + text + box.value.slice(box.selectionEnd);
  fireEvent.change(box, { target: { value } });
  box.setSelectionRange(at + text.length, at + text.length);
}

describe('the comment box', () => {
  it('keeps what is typed right after choosing a mention in order, whenever the next frame comes', async () => {
    renderWithProviders(
      <CommentComposer users={[KARLA]} saving={false} disabledReason={null} onSend={async () => {}} />,
    );
    const box = screen.getByLabelText('Nuevo comentario') as HTMLTextAreaElement;
    box.focus();
    typeAtCaret(box, 'Revisar con @kar');
    fireEvent.click(screen.getByRole('option', { name: /Karla Mendoza/ }));
    expect(box.value).toBe('Revisar con @Karla Mendoza ');
    // Typed before the browser paints again...
    typeAtCaret(box, 'antes del');
    // ...and after it.
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    typeAtCaret(box, ' viernes');
    expect(box.value).toBe('Revisar con @Karla Mendoza antes del viernes');
  });
});
