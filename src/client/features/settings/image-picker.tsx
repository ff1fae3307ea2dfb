import { Avatar, Button, FileButton, Group, Input, Stack, Text } from '@mantine/core';
import { IconArrowBackUp, IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { IMAGE_FORMATS, IMAGE_SIGNATURE_BYTES, imageFormatOf } from '../../../shared/domain/images';
import { IMAGE_ACCEPT, IMAGE_MAX_BYTES, USER_MESSAGES } from '../../../shared/schemas/settings';

/** What saving will do to the record's image. */
export type ImageChange = { kind: 'keep' } | { kind: 'upload'; file: File } | { kind: 'remove' };
export const KEEP_IMAGE: ImageChange = { kind: 'keep' };

const ACCEPTED_TYPES = IMAGE_ACCEPT.split(',');
const ACCEPTED_EXTENSIONS = IMAGE_FORMATS.flatMap((format) => format.extensions);

/**
 * Why a chosen file cannot be the image by what it says of itself — its type, or without one its
 * extension — and its size (spec part 2 §5), or null when it may be. Its bytes are judged after
 * (`imageBytesProblem`): a name or a type is only a claim.
 */
export function imageProblem(file: File): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const isImage = file.type ? ACCEPTED_TYPES.includes(file.type) : ACCEPTED_EXTENSIONS.includes(extension);
  if (!isImage) return USER_MESSAGES.avatarType;
  if (file.size > IMAGE_MAX_BYTES) return USER_MESSAGES.avatarSize;
  return null;
}

/** The first bytes of a file (Blob.arrayBuffer, or FileReader where a browser lacks it). */
function firstBytes(file: File, count: number): Promise<Uint8Array> {
  const head = file.slice(0, count);
  if (typeof head.arrayBuffer === 'function')
    return head.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(head);
  });
}

/**
 * Why a chosen file cannot be the image by its content — its first bytes are no JPG, PNG, GIF or
 * WebP, as the server will judge them (issue 28 §5: a text file named 'logo.png') — or null. A file
 * that cannot be read is refused too.
 */
export async function imageBytesProblem(file: File): Promise<string | null> {
  try {
    return imageFormatOf(await firstBytes(file, IMAGE_SIGNATURE_BYTES)) ? null : USER_MESSAGES.avatarType;
  } catch {
    return USER_MESSAGES.avatarType;
  }
}

/** A local preview address for a chosen file, released when it changes or the picker goes away. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

export interface ImagePickerProps {
  /** 'Logo' / 'Avatar'. */
  label: string;
  /** The saved image (the record's `logoUrl` / `avatarUrl`). */
  currentUrl: string | null;
  value: ImageChange;
  onChange: (change: ImageChange) => void;
  /** 'Quitar logo' / 'Quitar avatar'. */
  removeLabel: string;
  /** Under the buttons: what is accepted (`IMAGE_HINT`, what the server takes). */
  hint: string;
  /** Shown when there is no image (an icon, or the initials). */
  fallback: ReactNode;
  /** Round for avatars, rounded square for logos. */
  round?: boolean;
  disabled?: boolean;
}

/**
 * Chooses a logo or avatar: a preview, the file picker and 'Quitar …'. Nothing is sent here: the
 * form uploads or removes the image after saving the record. A file that is not an image — by its
 * type, its size or its first bytes — is refused on choosing with the spec's messages, never gets a
 * caption, and leaves the value as it was.
 */
export function ImagePicker({
  label,
  currentUrl,
  value,
  onChange,
  removeLabel,
  hint,
  fallback,
  round = false,
  disabled = false,
}: ImagePickerProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const resetRef = useRef<() => void>(null);
  const preview = useObjectUrl(value.kind === 'upload' ? value.file : null);
  const shown = value.kind === 'upload' ? preview : value.kind === 'remove' ? null : currentUrl;
  const hasImage = value.kind === 'upload' || (value.kind === 'keep' && currentUrl !== null);

  // Only the latest choice counts: a slower read of an earlier file decides nothing.
  const latestChoice = useRef(0);
  const choose = async (file: File | null) => {
    // The same file can be chosen again after a refusal or a removal.
    resetRef.current?.();
    if (!file) return;
    const choice = ++latestChoice.current;
    const refusal = imageProblem(file) ?? (await imageBytesProblem(file));
    if (choice !== latestChoice.current) return;
    setProblem(refusal);
    if (!refusal) onChange({ kind: 'upload', file });
  };

  const status =
    value.kind === 'upload'
      ? `${value.file.name}: se guardará al guardar el formulario`
      : value.kind === 'remove'
        ? 'Se quitará al guardar el formulario'
        : null;

  return (
    <Input.Wrapper label={label} error={problem} errorProps={{ role: 'alert' }}>
      <Group gap="md" mt={4} wrap="nowrap" align="center">
        <Avatar
          src={shown}
          alt={label}
          size={88}
          radius={round ? 1000 : 'md'}
          color="blue"
          styles={{ image: { objectFit: round ? 'cover' : 'contain' } }}
          style={{ border: '1px solid var(--mantine-color-default-border)', flexShrink: 0 }}
        >
          {fallback}
        </Avatar>
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <FileButton
              onChange={(file) => void choose(file)}
              accept={IMAGE_ACCEPT}
              resetRef={resetRef}
              disabled={disabled}
            >
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  size="xs"
                  leftSection={<IconPhotoUp size={16} />}
                  disabled={disabled}
                >
                  {hasImage ? 'Cambiar imagen' : 'Seleccionar imagen'}
                </Button>
              )}
            </FileButton>
            {hasImage ? (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                leftSection={<IconTrash size={16} />}
                disabled={disabled}
                onClick={() => {
                  latestChoice.current++;
                  setProblem(null);
                  onChange(currentUrl ? { kind: 'remove' } : KEEP_IMAGE);
                }}
              >
                {removeLabel}
              </Button>
            ) : null}
            {value.kind !== 'keep' && currentUrl ? (
              <Button
                variant="subtle"
                size="xs"
                leftSection={<IconArrowBackUp size={16} />}
                disabled={disabled}
                onClick={() => {
                  latestChoice.current++;
                  setProblem(null);
                  onChange(KEEP_IMAGE);
                }}
              >
                Deshacer
              </Button>
            ) : null}
          </Group>
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
          {status ? (
            <Text size="xs" c="blue.8" style={{ overflowWrap: 'anywhere' }}>
              {status}
            </Text>
          ) : null}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}
