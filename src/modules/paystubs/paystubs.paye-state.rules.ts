// Which state's revenue service a paystub's PAYE goes to (docs/payroll.md, "The tax year"): the
// employee's state of residence on 1 January of the tax year (PITA First Schedule para 3), from the
// history of their state (user_state_history, 0203). Pure: the planner asks, the run loads the rows.

/** One change of a user's state: rows of one user in (effective_from, id) order; null = cleared. */
export interface StateHistoryRow {
  user_id: number;
  state: string | null;
  /** YYYY-MM-DD, the calendar date in Nigeria of the change. */
  effective_from: string;
}

/**
 * The PAYE state of tax year `year`:
 * - the state on 1 January: that of the last change effective on or before it (several changes on
 *   one day: the last of them is that day's state);
 * - if none, or it was unknown then: the first state known after 1 January (an employee who joined
 *   during the year, or whose state was recorded only then);
 * - nothing known in the history (none at all: a user written before it existed): the user's
 *   current state.
 * A move during the year changes nothing until the next 1 January.
 */
export function payeStateFor(history: readonly StateHistoryRow[] | undefined, year: number, current: string | null): string | null {
  if (!history || history.length === 0) return current;
  const january = `${year}-01-01`;
  let onJanuary: string | null = null;
  let i = 0;
  for (; i < history.length && history[i].effective_from <= january; i++) onJanuary = history[i].state;
  if (onJanuary !== null) return onJanuary;
  while (i < history.length) {
    // The day's last change is the day's state.
    const day = history[i].effective_from;
    let state: string | null = null;
    for (; i < history.length && history[i].effective_from === day; i++) state = history[i].state;
    if (state !== null) return state;
  }
  return current;
}

/** Rows of many users (ordered by user, then effective_from and id) grouped by user, order kept. */
export function historyByUser(rows: readonly StateHistoryRow[] | undefined): Map<number, StateHistoryRow[]> {
  const byUser = new Map<number, StateHistoryRow[]>();
  for (const row of rows ?? []) {
    const list = byUser.get(row.user_id);
    if (list) list.push(row);
    else byUser.set(row.user_id, [row]);
  }
  return byUser;
}
