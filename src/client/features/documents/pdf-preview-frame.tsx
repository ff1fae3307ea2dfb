import { Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { isPdfPreviewReply } from './pdf-preview-messages';

type State = { kind: 'loading' } | { kind: 'rendered'; pages: number } | { kind: 'failed' };

/**
 * A PDF drawn by PDF.js inside a frame sandboxed to scripts only (decision 0037): the frame's page
 * (/pdf-preview.html) runs in an opaque origin, so a hostile PDF that broke PDF.js would still reach
 * no cookie and no API. The panel fetches the bytes with the user's session and hands them over.
 */
export function PdfPreviewFrame({ href, title }: { href: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    const onMessage = async (event: MessageEvent) => {
      // Only this panel's own frame; a sandboxed frame's origin is 'null', so it is told by its window.
      if (event.source !== frame.current?.contentWindow || !isPdfPreviewReply(event.data)) return;
      const reply = event.data;
      if (reply.kind === 'rendered') setState({ kind: 'rendered', pages: reply.pages });
      else if (reply.kind === 'failed') setState({ kind: 'failed' });
      else {
        try {
          const response = await fetch(href, { signal: controller.signal });
          if (!response.ok) throw new Error(String(response.status));
          const bytes = await response.arrayBuffer();
          frame.current?.contentWindow?.postMessage(bytes, '*', [bytes]);
        } catch {
          if (!controller.signal.aborted) setState({ kind: 'failed' });
        }
      }
    };
    window.addEventListener('message', onMessage);
    return () => {
      controller.abort();
      window.removeEventListener('message', onMessage);
    };
  }, [href]);

  return (
    <>
      <iframe
        ref={frame}
        title={title}
        src="/pdf-preview.html"
        sandbox="allow-scripts"
        style={{ width: '100%', height: '70vh', border: '1px solid var(--mantine-color-gray-3)' }}
      />
      <Text size="xs" c={state.kind === 'failed' ? 'red.8' : 'dimmed'} aria-live="polite">
        {state.kind === 'loading'
          ? 'Cargando la vista previa…'
          : state.kind === 'failed'
            ? 'No se pudo mostrar el archivo. Descárguelo para abrirlo.'
            : state.pages === 1
              ? '1 página'
              : `${state.pages} páginas`}
      </Text>
    </>
  );
}
