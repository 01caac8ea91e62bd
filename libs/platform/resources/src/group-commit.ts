/** One request's share of a group commit: its work runs in the group's transaction, its answer comes after the commit. */
interface Job<A, T> {
  run(scope: A): Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
  /** Already run again alone once (`retryAlone`). */
  retried?: boolean;
}

export interface GroupCommitOptions {
  /** Requests committed together at most. */
  maxBatch: number;
  /** Groups committing at once (each holds one pooled connection). */
  maxInFlight: number;
  /**
   * A request that failed with such an error is run once more in a group of its own instead of
   * being answered with it: a deadlock between two groups (each holding a lock the other's
   * later request waits for) is the groups' doing, not the request's.
   */
  retryAlone?: (error: unknown) => boolean;
}

/**
 * Group commit: concurrent requests share one transaction, so a burst costs one commit (one WAL
 * flush) per group instead of one per request. A group forms from what queued while the previous
 * groups were committing (no added delay when idle), bounded by `maxBatch`. `commit` runs the
 * group's runs in one transaction, handing each its scope `A`; a run rejects when its request
 * failed, and `commit` isolates it (a savepoint), so one failing request rejects alone. Every
 * request is answered only after its group committed.
 */
export class GroupCommitter<A> {
  private readonly queue: Job<A, unknown>[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly commit: (runs: readonly ((scope: A) => Promise<void>)[]) => Promise<void>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit<T>(run: (scope: A) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run, resolve, reject } as Job<A, unknown>);
      // Requests arriving in this turn of the event loop join one group.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  private drain(): void {
    while (this.queue.length > 0 && this.inFlight < this.options.maxInFlight) {
      const group = this.queue.splice(0, this.options.maxBatch);
      this.inFlight++;
      void this.flush(group).finally(() => {
        this.inFlight--;
        this.drain();
      });
    }
  }

  private async flush(group: Job<A, unknown>[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await this.commit(
        group.map((job, i) => async (scope: A) => {
          try {
            outcomes[i] = { ok: true, value: await job.run(scope) };
          } catch (error) {
            outcomes[i] = { ok: false, error };
            throw error;
          }
        }),
      );
    } catch (error) {
      // The commit itself failed: nothing of the group is stored, every request hears it.
      for (const job of group) this.fail(job, error);
      return;
    }
    group.forEach((job, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) job.resolve(outcome.value);
      else this.fail(job, outcome ? outcome.error : new Error('the group committed without running this request'));
    });
  }

  private fail(job: Job<A, unknown>, error: unknown): void {
    if (job.retried || !this.options.retryAlone?.(error)) return job.reject(error);
    job.retried = true;
    this.inFlight++;
    void this.flush([job]).finally(() => {
      this.inFlight--;
      this.drain();
    });
  }
}
