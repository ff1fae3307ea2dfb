/**
 * Bank data checked by a second person (decisions 0052, 0063): brokers', promotion payees' and
 * agencies' accounts are held the same way, each table with the same four columns.
 */

/** Who set an account's bank data as it now is: its author and when. */
export interface BankChange {
  changedBy: string | null;
  at: Date | null;
}

/** The columns a changed account writes: its author and time, and the verification cleared (it waits again). */
export function awaitingVerification(change: BankChange | null) {
  return change
    ? {
        bankChangedBy: change.changedBy,
        bankChangedAt: change.at,
        bankVerifiedBy: null,
        bankVerifiedAt: null,
      }
    : {};
}
