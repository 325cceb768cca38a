/**
 * The audit trail's tasks per Account. Its calls in flight at once: a few (the limit changes with
 * the operator's load), so that they share the Account's client, its rate limit and connections,
 * with the reconciles; tasks beyond wait here in order, those a reconcile waits for first. And its
 * tasks not done yet, wherever they wait: an Account being deleted keeps its client until none is.
 */
export class AccountSlots<T> {
  /** Calls in flight and tasks waiting for a slot, per Account. */
  private readonly byAccount = new Map<string, { running: number; waiting: T[] }>();
  /** Tasks not done, per Account (those behind their object's earlier ones too). */
  private readonly open = new Map<string, number>();
  /** Called whenever a task is done (settled()). */
  private waiters: (() => void)[] = [];
  private readonly limit: () => number;
  private readonly start: (task: T) => void;

  constructor(limit: () => number, start: (task: T) => void) {
    this.limit = limit;
    this.start = start;
  }

  /** A task of the Account is queued (its slot is taken later, when its object's turn comes). */
  opened(account: string): void {
    this.open.set(account, (this.open.get(account) ?? 0) + 1);
  }

  /** A task of the Account is done, or given up. */
  closed(account: string): void {
    const left = (this.open.get(account) ?? 1) - 1;
    if (left > 0) this.open.set(account, left);
    else this.open.delete(account);
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Resolves when no task of the Account is left. */
  async settled(account: string): Promise<void> {
    while (this.open.has(account)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Every task is given up (a shutdown): whoever waits goes on. */
  clear(): void {
    this.open.clear();
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  /** Starts the task when its Account has a slot free, else queues it (`first`: ahead of the others). */
  take(account: string, task: T, first: boolean): void {
    let slots = this.byAccount.get(account);
    if (!slots) {
      slots = { running: 0, waiting: [] };
      this.byAccount.set(account, slots);
    }
    if (slots.running < this.limit()) {
      slots.running++;
      this.start(task);
    } else if (first) slots.waiting.unshift(task);
    else slots.waiting.push(task);
  }

  /**
   * A call of the Account ended: its slot goes to those waiting, as many as the limit allows now
   * (it may have grown since: reconciles done).
   */
  release(account: string): void {
    const slots = this.byAccount.get(account);
    if (!slots) return;
    slots.running--;
    while (slots.waiting.length > 0 && slots.running < this.limit()) {
      slots.running++;
      this.start(slots.waiting.shift()!);
    }
    if (slots.running === 0 && slots.waiting.length === 0) this.byAccount.delete(account);
  }
}
