// The flows' query keys apart from their fetchers: the live updates in the shell import them, and
// api.ts (with its fetchers and hooks) stays in the screens' chunks (decision 0005).

/**
 * The two kinds of flow the flow screens show. Their task commands are the same under each kind's
 * base path (the workflows' shared routes); their cached reads live under one root per kind.
 */
export type FlowKind = 'sale' | 'payment';

/** A flow the task commands address. */
export interface FlowRef {
  kind: FlowKind;
  id: string;
}

export const flowKeys = {
  /** Every cached read of a kind: its list(s), details and comments. */
  all: (kind: FlowKind) => [kind === 'sale' ? 'sale-flows' : 'payment-flows'] as const,
  detail: (flow: FlowRef) => [...flowKeys.all(flow.kind), 'detail', flow.id] as const,
  comments: (flow: FlowRef, taskId: string) => [...flowKeys.detail(flow), 'comments', taskId] as const,
};
