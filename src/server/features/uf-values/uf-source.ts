import { isCalendarDate, parseEsClDecimal, type UfEntry } from '../../../shared/domain/uf';

/**
 * The automatic UF fetch's source (decision 0034): the CMF's API (Comisión para el Mercado
 * Financiero, api.cmfchile.cl), which answers a month's values and those already published after it
 * — around the 9th, the days up to the next 9th — as `{"UFs": [{"Valor": "39.643,40", "Fecha":
 * "2026-11-01"}, …]}`. Off unless an API key is configured (UF_API_KEY).
 */
export interface UfFetchSettings {
  apiKey: string | null;
  /** Up to the resource ('https://api.cmfchile.cl/api-sbifv3/recursos_api/uf'); tests point it at a fake. */
  baseUrl: string;
  timeoutMs?: number;
}

/** The settings from the server's environment (UF_API_KEY, UF_API_URL). */
export function ufFetchSettings(env: { UF_API_KEY?: string; UF_API_URL: string }): UfFetchSettings {
  return { apiKey: env.UF_API_KEY || null, baseUrl: env.UF_API_URL };
}

/** Why the source's answer could not be used, in Spanish (the attempt records it). */
export class UfSourceError extends Error {}

/** The values of `today`'s month and those published after it, as the source answers them. */
export async function fetchPublishedValues(settings: UfFetchSettings, today: string): Promise<UfEntry[]> {
  const [year, month] = today.split('-');
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/posteriores/${year}/${month}?apikey=${encodeURIComponent(settings.apiKey ?? '')}&formato=json`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000) });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new UfSourceError(
      timedOut ? 'La fuente no respondió a tiempo' : 'No se pudo conectar con la fuente',
    );
  }
  if (!response.ok) throw new UfSourceError(`La fuente respondió con el error ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new UfSourceError('La respuesta de la fuente no se pudo leer');
  }
  const list = (body as { UFs?: unknown } | null)?.UFs;
  if (!Array.isArray(list) || list.length === 0)
    throw new UfSourceError('La respuesta de la fuente no trae valores UF');
  return list.map((item: unknown) => {
    const { Valor, Fecha } = (item ?? {}) as { Valor?: unknown; Fecha?: unknown };
    const value = typeof Valor === 'string' ? parseEsClDecimal(Valor) : null;
    if (typeof Fecha !== 'string' || !isCalendarDate(Fecha) || value === null) {
      throw new UfSourceError(`La fuente trae un valor ilegible: ${JSON.stringify(item).slice(0, 80)}`);
    }
    return { date: Fecha, value };
  });
}
