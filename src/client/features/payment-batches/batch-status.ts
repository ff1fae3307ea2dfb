/** A batch's state as a badge's colour: open, paid, cancelled. */
export const BATCH_STATUS_COLORS = { open: 'blue', paid: 'green', cancelled: 'gray' } as const;
