// The PDF preview frame (decision 0037): the documents panel opens /pdf-preview.html in an iframe
// sandboxed to scripts only, so this page runs in an opaque origin — it reads no cookie, calls no
// API with the user's session and reaches nothing of the app's. The panel fetches the file's bytes
// and posts them here; PDF.js draws each page on a canvas (it runs no script a PDF carries), and this page
// answers how many pages it drew or that it could not.
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
// A sandboxed frame may not start a worker from the app's scripts: PDF.js parses on this thread.
import * as pdfWorker from 'pdfjs-dist/build/pdf.worker.min.mjs';
import type { PdfPreviewReply } from './features/documents/pdf-preview-messages';

(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfWorker;
GlobalWorkerOptions.workerSrc = '';

const pages = document.getElementById('pages') as HTMLElement;
const reply = (message: PdfPreviewReply) => window.parent.postMessage(message, '*');

async function render(bytes: ArrayBuffer) {
  const pdf = await getDocument({ data: bytes, enableXfa: false }).promise;
  // A page at 1.5 CSS pixels per point (A4 ≈ 890 px, shrunk to the frame's width by the style),
  // drawn with the screen's density so that it stays sharp.
  const density = Math.min(2, window.devicePixelRatio || 1);
  const scale = 1.5 * density;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const viewport = page.getViewport({ scale });
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(viewport.width);
    canvas.height = Math.ceil(viewport.height);
    canvas.style.width = `${Math.floor(viewport.width / density)}px`;
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `Página ${number} de ${pdf.numPages}`);
    pages.append(canvas);
    await page.render({ canvas, viewport }).promise;
  }
  return pdf.numPages;
}

window.addEventListener('message', async (event: MessageEvent) => {
  // Only the panel that opened this frame sends the bytes, once.
  if (event.source !== window.parent || !(event.data instanceof ArrayBuffer)) return;
  try {
    reply({ kind: 'rendered', pages: await render(event.data) });
  } catch {
    const message = document.createElement('p');
    message.textContent = 'No se pudo mostrar el archivo.';
    pages.replaceChildren(message);
    reply({ kind: 'failed' });
  }
});

reply({ kind: 'ready' });
