import type { ApiErrorBody } from '../../shared/errors';
import type { ExportFormat } from '../../shared/reports/columns';
import { UNAUTHENTICATED_ERROR } from '../../shared/session-errors';
import { connection } from './connection';

/** A refused or failed API call, with the server's Spanish message and per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const NETWORK_ERROR_MESSAGE = 'No se pudo conectar con el servidor.';

type Listener = () => void;
const sessionLostListeners = new Set<Listener>();

/** Called when an authenticated request answers 401 (the session expired or was ended). */
export function onSessionLost(listener: Listener): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

/**
 * True from the start of this tab's sign-out until a user is signed in again. A request that needs
 * the session is then not sent: the server would answer 401, and the browser logs every 401 in the
 * console even when the screen expects it (a list still mounted, refetched while the sign-out
 * navigates away, on a slow machine). It fails here as the 401 would, without reporting a lost
 * session: the session's end is expected.
 */
let signedOut = false;

/** Said by the sign-out (true when it starts, false if it fails) and by every sign-in (false). */
export function setSignedOut(value: boolean): void {
  signedOut = value;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON; a Blob or File is sent as its raw bytes (`application/octet-stream`, image uploads). */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /**
   * A call that needs no session (sign-in, registration, the current-user probe, sign-out): sent
   * even while signed out, and its 401 is not reported as a lost session.
   */
  allowUnauthenticated?: boolean;
}

function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Calls our API; resolves with the JSON body or throws an ApiError carrying the server's message. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  if (signedOut && !options.allowUnauthenticated) {
    const { status, message } = UNAUTHENTICATED_ERROR;
    throw new ApiError(status, 'UNAUTHENTICATED', message);
  }
  const init: RequestInit = {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: options.signal,
  };
  if (options.body instanceof Blob) {
    init.body = options.body;
    init.headers = { ...init.headers, 'content-type': 'application/octet-stream' };
  } else if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    init.headers = { ...init.headers, 'content-type': 'application/json' };
  }
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), init);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    connection.reportFailure();
    throw new ApiError(0, 'NETWORK', NETWORK_ERROR_MESSAGE);
  }
  const unreachable = response.status === 502 || response.status === 503 || response.status === 504;
  if (unreachable) connection.reportFailure();
  else connection.reportAnswer();
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as (T & Partial<ApiErrorBody>) | null;
  if (response.ok) return body as T;

  if (response.status === 401 && !options.allowUnauthenticated) {
    for (const listener of sessionLostListeners) listener();
  }
  const error = body?.error;
  throw new ApiError(
    response.status,
    error?.code ?? 'HTTP_ERROR',
    error?.message ??
      (response.status >= 500 ? 'Ocurrió un error inesperado. Intente nuevamente.' : NETWORK_ERROR_MESSAGE),
    error?.fields ?? {},
  );
}

/** The user-facing message of any error thrown by a query or mutation. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Ocurrió un error inesperado. Intente nuevamente.';
}

/** A list's request as a screen builds it (page, order, filters; undefined ones are left out). */
export type ExportQuery = Record<string, string | number | undefined>;

/**
 * The address of a list's export (`{endpoint}/export?…&format=csv`, a download the server streams):
 * the list's filters and order, not its page, and the format.
 */
export function exportHref(endpoint: string, query: ExportQuery, format: ExportFormat): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'page' || key === 'pageSize' || value === undefined || value === '') continue;
    params.set(key, String(value));
  }
  params.set('format', format);
  return `${endpoint}/export?${params.toString()}`;
}
