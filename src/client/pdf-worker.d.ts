// PDF.js ships its worker as a script without declarations: the preview frame only hands the
// module to PDF.js (`globalThis.pdfjsWorker`), which reads its `WorkerMessageHandler`.
declare module 'pdfjs-dist/build/pdf.worker.min.mjs' {
  export const WorkerMessageHandler: unknown;
}
