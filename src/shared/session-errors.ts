/**
 * The catalogue's entry the client's request layer answers itself while signed out (`errors.ts`
 * takes it from here). Apart so that the first load carries this one message, not the whole
 * catalogue (~7 KB gzip of the initial JavaScript, decision 0005).
 */
export const UNAUTHENTICATED_ERROR = { status: 401, message: 'Debe iniciar sesión para continuar.' } as const;
