/**
 * The image formats a project logo or a user avatar may be (decision 0016), once: the server judges
 * an upload by its bytes (file-type's MIME type, then libvips must agree) and the browser judges a
 * chosen file by its first bytes, before anything is sent — a text file named 'logo.png' is refused
 * on choosing, not after the record was saved (issue 28 §5). What the pickers offer and say comes
 * from here too, so the hint never lists less (or more) than the server takes.
 */

export interface ImageFormat {
  /** As users know it: 'JPG', 'PNG', 'GIF', 'WebP'. */
  label: string;
  /** The MIME types of the format, as file-type names them (an animated PNG is 'image/apng'). */
  mimeTypes: readonly string[];
  extensions: readonly string[];
  /** libvips' name of the format (sharp's `metadata().format`). */
  decoder: 'jpeg' | 'png' | 'gif' | 'webp';
  /** Whether these first bytes start a file of this format (its magic number). */
  matches: (bytes: Uint8Array) => boolean;
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

export const IMAGE_FORMATS: readonly ImageFormat[] = [
  {
    label: 'JPG',
    mimeTypes: ['image/jpeg'],
    extensions: ['jpg', 'jpeg'],
    decoder: 'jpeg',
    matches: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]),
  },
  {
    label: 'PNG',
    mimeTypes: ['image/png', 'image/apng'],
    extensions: ['png'],
    decoder: 'png',
    matches: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    label: 'GIF',
    mimeTypes: ['image/gif'],
    extensions: ['gif'],
    decoder: 'gif',
    matches: (bytes) => startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')),
  },
  {
    label: 'WebP',
    mimeTypes: ['image/webp'],
    extensions: ['webp'],
    decoder: 'webp',
    // 'RIFF', the chunk's size, 'WEBP'.
    matches: (bytes) => startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8),
  },
];

/** How many first bytes `imageFormatOf` needs. */
export const IMAGE_SIGNATURE_BYTES = 12;

/** The format the first bytes of a file announce, or null when they are none of the accepted ones. */
export function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  return IMAGE_FORMATS.find((format) => format.matches(bytes)) ?? null;
}

/** 'JPG, PNG, GIF o WebP': what a picker's hint says is accepted. */
export const IMAGE_FORMATS_TEXT = new Intl.ListFormat('es', { type: 'disjunction' }).format(
  IMAGE_FORMATS.map((format) => format.label),
);
