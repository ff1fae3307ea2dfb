import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { IMAGE_HINT, IMAGE_MAX_BYTES } from '../../../shared/schemas/settings';
import { renderWithProviders } from '../../test/render';
import { type ImageChange, ImagePicker, imageBytesProblem, imageProblem, KEEP_IMAGE } from './image-picker';

function Harness({ currentUrl = null }: { currentUrl?: string | null }) {
  const [value, setValue] = useState<ImageChange>(KEEP_IMAGE);
  return (
    <>
      <ImagePicker
        label="Logo"
        currentUrl={currentUrl}
        value={value}
        onChange={setValue}
        removeLabel="Quitar logo"
        hint={IMAGE_HINT}
        fallback="EA"
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

/** `size` bytes that start as a file of the format (its magic number), the rest zeros. */
function imageBytes(format: 'png' | 'jpeg' | 'gif' | 'webp', size = 64) {
  const signatures = {
    png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    jpeg: [0xff, 0xd8, 0xff, 0xe0],
    gif: [...'GIF89a'].map((c) => c.charCodeAt(0)),
    webp: [...'RIFF\u0024\u0000\u0000\u0000WEBPVP8 '].map((c) => c.charCodeAt(0)),
  };
  const bytes = new Uint8Array(size);
  bytes.set(signatures[format]);
  return bytes;
}

const NOT_AN_IMAGE = 'Por favor seleccione un archivo de imagen válido';
const caption = (name: string) => `${name}: se guardará al guardar el formulario`;

describe('ImagePicker', () => {
  it('refuses a file that is not an image, with the spec’s message, and keeps the value', async () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File(['hola'], 'notas.txt', { type: 'text/plain' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_AN_IMAGE);
    expect(screen.getByTestId('value').textContent).toBe('keep');
  });

  it('refuses, on choosing, a text file named logo.png: judged by its bytes, no caption (issue 28 §5)', async () => {
    const { container } = renderWithProviders(<Harness />);
    // The browser gives it the type its name suggests.
    choose(container, new File(['esto no es una imagen'], 'logo.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_AN_IMAGE);
    expect(screen.getByTestId('value').textContent).toBe('keep');
    expect(screen.queryByText(caption('logo.png'))).toBeNull();
  });

  it('keeps the image chosen before a refused one, and never captions the refused one', async () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File([imageBytes('png')], 'logo-real.png', { type: 'image/png' }));
    expect(await screen.findByText(caption('logo-real.png'))).toBeTruthy();
    choose(container, new File(['texto'], 'logo.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NOT_AN_IMAGE);
    expect(screen.queryByText(caption('logo.png'))).toBeNull();
    expect(screen.getByTestId('value').textContent).toBe('upload:logo-real.png');
  });

  it('refuses an image over 2 MB, with the spec’s message', async () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File([imageBytes('png', IMAGE_MAX_BYTES + 1)], 'foto.png', { type: 'image/png' }));
    expect((await screen.findByRole('alert')).textContent).toBe('La imagen no debe superar los 2MB');
    expect(screen.getByTestId('value').textContent).toBe('keep');
  });

  it('takes an image of up to 2 MB, and a refusal clears when a good one follows', async () => {
    const { container } = renderWithProviders(<Harness />);
    choose(container, new File(['x'], 'notas.pdf', { type: 'application/pdf' }));
    expect(await screen.findByRole('alert')).toBeTruthy();
    choose(container, new File([imageBytes('jpeg', IMAGE_MAX_BYTES)], 'foto.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('upload:foto.jpg'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText(caption('foto.jpg'))).toBeTruthy();
  });

  it('offers to remove a saved image, and to undo that', () => {
    renderWithProviders(<Harness currentUrl="/api/files/avatar.png" />);
    fireEvent.click(screen.getByRole('button', { name: 'Quitar logo' }));
    expect(screen.getByTestId('value').textContent).toBe('remove');
    expect(screen.getByText('Se quitará al guardar el formulario')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Deshacer' }));
    expect(screen.getByTestId('value').textContent).toBe('keep');
  });

  it('says what the server takes: JPG, PNG, GIF and WebP, up to 2 MB', () => {
    renderWithProviders(<Harness />);
    expect(screen.getByText('JPG, PNG, GIF o WebP, máximo 2MB')).toBeTruthy();
  });

  it('judges a file without a type by its extension, and any file by its first bytes', async () => {
    expect(imageProblem(new File(['x'], 'logo.PNG'))).toBeNull();
    expect(imageProblem(new File(['x'], 'logo.webp'))).toBeNull();
    expect(imageProblem(new File(['x'], 'logo.svg', { type: 'image/svg+xml' }))).toBe(NOT_AN_IMAGE);
    for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) {
      expect(await imageBytesProblem(new File([imageBytes(format)], `a.${format}`)), format).toBeNull();
    }
    // A GIF named .png is an image the server takes (it judges the bytes too).
    expect(await imageBytesProblem(new File([imageBytes('gif')], 'a.png', { type: 'image/png' }))).toBeNull();
    expect(await imageBytesProblem(new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'a.png'))).toBe(
      NOT_AN_IMAGE,
    );
    expect(await imageBytesProblem(new File([], 'vacio.png'))).toBe(NOT_AN_IMAGE);
  });
});
