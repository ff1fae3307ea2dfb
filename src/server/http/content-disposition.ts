import type { FastifyReply } from 'fastify';
import { stripUnseen } from '../../shared/text-safety';

/**
 * `attachment; filename="…"; filename*=UTF-8''…`: an ASCII fallback and the real name (RFC 6266,
 * RFC 5987), so 'Disponibilidad_Ñuñoa.csv' keeps its ñ in every browser. A name stored before the
 * clean-text rule is written without its control and bidirectional characters (decision 0058).
 */
export function contentDisposition(kind: 'attachment' | 'inline', fileName: string): string {
  const name = stripUnseen(fileName);
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A PDF of ours, opened in a tab of its own (it holds no script: still sandboxed, nosniff). */
export function sendPdf(reply: FastifyReply, pdf: { fileName: string; bytes: Buffer }) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', contentDisposition('inline', pdf.fileName))
    .header(
      'Content-Security-Policy',
      "sandbox; default-src 'none'; style-src 'unsafe-inline'; object-src 'self'",
    )
    .header('Cache-Control', 'private, no-store')
    .send(pdf.bytes);
}
