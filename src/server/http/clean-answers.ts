import type { FastifyInstance } from 'fastify';

/**
 * In an answer's JSON text: an escaped backslash (kept, so what follows it is not read as an
 * escape), or a control character other than tab, line feed and carriage return (escaped by
 * JSON.stringify as \b, \f or \u00XX), or a C1 control, a bidirectional mark or override, a line or
 * paragraph separator or a byte-order mark (written as they are).
 */
const UNSEEN_IN_JSON =
  /\\\\|\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|\\[bf]|[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g;
const HAS_UNSEEN_IN_JSON =
  /\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])|\\[bf]|[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/;

/** A JSON answer's text without the unseen characters of its strings; line breaks and tabs kept. */
export function cleanAnswerJson(json: string): string {
  if (!HAS_UNSEEN_IN_JSON.test(json)) return json;
  return json.replace(UNSEEN_IN_JSON, (match) => (match === '\\\\' ? match : ''));
}

/**
 * Text stored before the clean-text rule (decision 0058) reaches no screen with its control or
 * bidirectional characters: every JSON answer of the scope is written without them. The rows keep
 * what was stored (the audit trail tells what was written); only what is shown changes.
 */
export function registerCleanAnswers(scope: FastifyInstance) {
  scope.addHook('onSend', async (_request, reply, payload) => {
    if (typeof payload !== 'string') return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json')) return payload;
    return cleanAnswerJson(payload);
  });
}
