import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '../../../shared/schemas/settings';
import { renderWithProviders } from '../../test/render';
import { type ImageChange, ImagePicker, imageProblem, KEEP_IMAGE } from './image-picker';

function Harness({ currentUrl = null }: { currentUrl?: string | null }) {
  const [value, setValue] = useState<ImageChange>(KEEP_IMAGE);
  return (
    <>
      <ImagePicker
        label="Avatar"
        currentUrl={currentUrl}
        value={value}
        onChange={setValue}
        removeLabel="Quitar avatar"
        hint="JPG, PNG o GIF, máximo 2MB"
        fallback="AR"
        round
      />
      <output data-testid="value">
        {value.kind === 'upload' ? `upload:${value.file.name}` : value.kind}
      </output>
    </>
  );
}

function choose(container: HTMLElement, file: File) {
  const input = container.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

const bytes = (size: number) => new Uint8Array(size);

describe('ImagePicker', () => {
  it('refuses a file that is not an image, with the spec’s message, and keeps the value', () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File(['hola'], 'notas.txt', { type: 'text/plain' }));
    expect(screen.getByRole('alert').textContent).toBe('Por favor seleccione un archivo de imagen válido');
    expect(screen.getByTestId('value').textContent).toBe('keep');
  });

  it('refuses an image over 2 MB, with the spec’s message', () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File([bytes(IMAGE_MAX_BYTES + 1)], 'foto.png', { type: 'image/png' }));
    expect(screen.getByRole('alert').textContent).toBe('La imagen no debe superar los 2MB');
    expect(screen.getByTestId('value').textContent).toBe('keep');
  });

  it('takes an image of up to 2 MB, and a refusal clears when a good one follows', () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File(['x'], 'notas.pdf', { type: 'application/pdf' }));
    expect(screen.getByRole('alert')).toBeTruthy();
    choose(container, new File([bytes(IMAGE_MAX_BYTES)], 'foto.jpg', { type: 'image/jpeg' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('value').textContent).toBe('upload:foto.jpg');
    expect(screen.getByText('foto.jpg: se guardará al guardar el formulario')).toBeTruthy();
  });

  it('offers to remove a saved image, and to undo that', () => {
    renderWithProviders(<Harness currentUrl="/api/files/avatar.png" />);
    fireEvent.click(screen.getByRole('button', { name: 'Quitar avatar' }));
    expect(screen.getByTestId('value').textContent).toBe('remove');
    expect(screen.getByText('Se quitará al guardar el formulario')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deshacer' }));
    expect(screen.getByTestId('value').textContent).toBe('keep');
  });

  it('judges a file without a type by its extension', () => {
    expect(imageProblem(new File(['x'], 'logo.PNG'))).toBeNull();
    expect(imageProblem(new File(['x'], 'logo.svg', { type: 'image/svg+xml' }))).toBe(
      'Por favor seleccione un archivo de imagen válido',
    );
  });
});
