/** What the PDF preview frame (src/client/pdf-preview.ts) tells the documents panel. */
export type PdfPreviewReply = { kind: 'ready' } | { kind: 'rendered'; pages: number } | { kind: 'failed' };

export function isPdfPreviewReply(data: unknown): data is PdfPreviewReply {
  if (typeof data !== 'object' || data === null) return false;
  const { kind, pages } = data as { kind?: unknown; pages?: unknown };
  return kind === 'ready' || kind === 'failed' || (kind === 'rendered' && typeof pages === 'number');
}
