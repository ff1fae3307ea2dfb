// Issue 35: a 20 MB document uploaded to a reservation through the running server while its resident
// memory is sampled (target: it grows by at most 50 MB — the file is streamed to a spool and into the
// database in chunks, never held whole), downloaded back (byte-identical; its growth reported
// apart), then deleted; and the
// reservation's receipt PDF asked for one request at a time (target p99 ≤ 300 ms).
import { readFileSync } from 'node:fs';

export interface DocumentMeasurement {
  uploadStatus: number;
  uploadMs: number;
  downloadMs: number;
  identical: boolean;
  rssBeforeMb: number;
  rssPeakMb: number;
  /** During the upload (the target's measure). */
  rssGrowthMb: number;
  /** Until the download back has been read too. */
  rssGrowthWithDownloadMb: number;
  receiptStatus: number;
  receiptRequests: number;
  receiptP50: number;
  receiptP99: number;
  receiptBytes: number;
}

const UPLOAD_BYTES = 20 * 1024 * 1024;
const RECEIPTS = 200;

/** The server's resident memory (Linux /proc), in MB. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** A 20 MB PDF (its header, filler, its end marker): judged previewable by the server. */
function bigPdf(): Buffer {
  const head = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\n% ', 'latin1');
  const tail = Buffer.from('\ntrailer <</Root 1 0 R>>\n%%EOF\n', 'latin1');
  const filler = Buffer.alloc(UPLOAD_BYTES - head.length - tail.length);
  for (let index = 0; index < filler.length; index++) filler[index] = 32 + ((index * 7919) % 90);
  return Buffer.concat([head, filler, tail]);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Null when the server has no documents (404: not built yet). */
export async function measureDocuments(
  origin: string,
  cookie: string,
  serverPid: number,
): Promise<DocumentMeasurement | null> {
  const headers = { cookie, origin };
  const page = await fetch(`${origin}/api/reservations?page=1&pageSize=1`, { headers });
  const reservationId = ((await page.json()) as { rows: { id: string }[] }).rows[0]?.id;
  const types = await fetch(`${origin}/api/document-types`, { headers });
  if (types.status === 404 || !reservationId) return null;
  const typeId = ((await types.json()) as { types: { id: string; name: string }[] }).types.find(
    (type) => type.name === 'Escritura',
  )!.id;

  const bytes = bigPdf();
  // A few requests first, so the sample starts from the server's settled working set.
  for (let index = 0; index < 5; index++) await (await fetch(`${origin}/api/health`)).arrayBuffer();
  const rssBeforeMb = rssMb(serverPid);
  let rssPeakMb = rssBeforeMb;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeakMb = Math.max(rssPeakMb, rssMb(serverPid));
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const started = performance.now();
  const upload = await fetch(
    `${origin}/api/reservations/${reservationId}/documents?typeId=${typeId}&fileName=bench-20MB.pdf`,
    {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    },
  );
  const uploaded = (await upload.json()) as { document?: { id: string } };
  const uploadMs = performance.now() - started;
  // The target is the upload's: the download (streamed as well) is sampled on its own below.
  const uploadPeakMb = rssPeakMb;
  let downloadMs = 0;
  let identical = false;
  if (uploaded.document) {
    const downloadStart = performance.now();
    const download = await fetch(
      `${origin}/api/reservations/${reservationId}/documents/${uploaded.document.id}/download`,
      { headers },
    );
    const back = Buffer.from(await download.arrayBuffer());
    downloadMs = performance.now() - downloadStart;
    identical = back.equals(bytes);
  }
  sampling = false;
  await sampler;
  if (uploaded.document) {
    await fetch(`${origin}/api/reservations/${reservationId}/documents/${uploaded.document.id}`, {
      method: 'DELETE',
      headers,
    });
  }

  const times: number[] = [];
  let receiptStatus = 0;
  let receiptBytes = 0;
  for (let index = 0; index < RECEIPTS + 10; index++) {
    const requestStart = performance.now();
    const receipt = await fetch(`${origin}/api/reservations/${reservationId}/receipt.pdf`, { headers });
    const body = await receipt.arrayBuffer();
    // The first ten warm the server up.
    if (index >= 10) times.push(performance.now() - requestStart);
    receiptStatus = receipt.status;
    receiptBytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return {
    uploadStatus: upload.status,
    uploadMs: Math.round(uploadMs),
    downloadMs: Math.round(downloadMs),
    identical,
    rssBeforeMb: Math.round(rssBeforeMb),
    rssPeakMb: Math.round(rssPeakMb),
    rssGrowthMb: Math.round(uploadPeakMb - rssBeforeMb),
    rssGrowthWithDownloadMb: Math.round(rssPeakMb - rssBeforeMb),
    receiptStatus,
    receiptRequests: times.length,
    receiptP50: Math.round(percentile(times, 50) * 10) / 10,
    receiptP99: Math.round(percentile(times, 99) * 10) / 10,
    receiptBytes,
  };
}
