/**
 * Runs at most `max` tasks at once; the others wait in arrival order. Tasks must not reject (a
 * delivery attempt turns every failure into an outcome).
 */
export class ConcurrencyLimit {
  #running = 0;
  readonly #waiting: (() => Promise<void>)[] = [];

  constructor(
    private readonly max: number,
    /** Told each time a task ends. */
    private readonly onSettled: () => void,
  ) {}

  /** Tasks running or waiting. */
  get size(): number {
    return this.#running + this.#waiting.length;
  }

  run(task: () => Promise<void>): void {
    this.#waiting.push(task);
    this.#next();
  }

  #next(): void {
    while (this.#running < this.max && this.#waiting.length > 0) {
      const task = this.#waiting.shift()!;
      this.#running++;
      void task().finally(() => {
        this.#running--;
        this.#next();
        this.onSettled();
      });
    }
  }
}
