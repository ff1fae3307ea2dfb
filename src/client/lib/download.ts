import type { MouseEvent } from 'react';
import type { ApiErrorBody } from '../../shared/errors';
import { NETWORK_ERROR_MESSAGE } from './api';
import { notifyError } from './notify';

/**
 * Heavy downloads (exports, errors workbooks, PDFs, holders' data, backups) fetched by the page
 * rather than followed as links: a refusal — most often the polite 429 of the heavy-jobs limit
 * (decision 0050: 'Ya hay una exportación en curso; intente en un momento.') — is shown as a
 * notification with the server's Spanish message, never saved as a broken file or opened as a blank
 * tab. A file that came is saved under the name the server gave it, or opened in a new tab (`open`).
 */

/** The file name of `Content-Disposition` (`filename*=UTF-8''…` first, then `filename="…"`). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // a malformed name: the plain one below
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? fallback;
}

/** The message of a refused download: the server's own words, or a plain one. */
async function refusalOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
  return (
    body?.error?.message ??
    (response.status >= 500 ? 'Ocurrió un error inesperado. Intente nuevamente.' : NETWORK_ERROR_MESSAGE)
  );
}

export async function download(href: string, options: { open?: boolean } = {}): Promise<void> {
  let response: Response;
  try {
    response = await fetch(href, { credentials: 'same-origin' });
  } catch {
    notifyError(NETWORK_ERROR_MESSAGE);
    return;
  }
  if (!response.ok) {
    notifyError(await refusalOf(response));
    return;
  }
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const fallback = href.split('?')[0]!.split('/').pop() ?? 'archivo';
  const tab = options.open ? window.open(url, '_blank') : null;
  if (tab) {
    tab.opener = null;
    // The tab has read it by then.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return;
  }
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition'), fallback);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The click handler of a download link: the page fetches it (a plain click); a click with a modifier
 * (a new tab or window, saving the link) is left to the browser.
 */
export function downloadOnClick(href: string, options: { open?: boolean } = {}) {
  return (event: MouseEvent<HTMLElement>) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void download(href, options);
  };
}
