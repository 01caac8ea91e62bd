import { AsyncResource } from 'node:async_hooks';

export interface PassLoopLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface PassLoopOptions {
  /** Names the loop in its logs. */
  name: string;
  /** One pass of the work; answers true when more is waiting, so the next pass starts at once. */
  pass: () => Promise<boolean>;
  /**
   * How often a pass starts when nothing is waiting (and no kick came): counted from the start of
   * the last pass, so a pass's own length does not add to the wait (a timer polled every 100 ms
   * by passes of 50 ms is looked at every 100 ms, not 150).
   */
  pollMs: number;
  logger: PassLoopLogger;
}

/** The longest wait after failed passes (a dependency away): tried again at least this often. */
const MAX_BACKOFF_MS = 5000;

/**
 * A background worker's loop (the outbox relay, the paging engine's firing and sending): one pass
 * at a time, started every `pollMs`, woken at once by `kick` (a kick during a pass runs another
 * right after it), and backing off while passes fail (a database or broker away) without ever
 * giving up. Passes run outside the request that kicked them: bound where the loop is made, so
 * their queries and logs carry no request id.
 */
export class PassLoop {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = true;
  #failures = 0;
  readonly #runOutsideRequests = AsyncResource.bind(() => void this.#run());

  constructor(private readonly options: PassLoopOptions) {}

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Runs a pass now, or right after the running one. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#running) this.#again = true;
    else this.#schedule(0);
  }

  /** Stops polling and waits for the running pass. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  #schedule(delay: number): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#runOutsideRequests, delay);
    this.#timer.unref();
  }

  async #run(): Promise<void> {
    this.#timer = null;
    if (this.#running || this.#stopped) return;
    const { name, pass, pollMs, logger } = this.options;
    const started = performance.now();
    let next = pollMs;
    this.#running = (async () => {
      try {
        next = (await pass()) ? 0 : Math.max(0, pollMs - (performance.now() - started));
        if (this.#failures > 0) logger.info({ loop: name, failures: this.#failures }, `${name} recovered`);
        this.#failures = 0;
      } catch (error) {
        this.#failures++;
        next = Math.min(MAX_BACKOFF_MS, Math.max(pollMs, 10) * 2 ** Math.min(this.#failures, 5));
        if (this.#failures === 1 || this.#failures % 20 === 0) logger.warn({ loop: name, err: error, failures: this.#failures }, `${name} failed; retrying`);
      }
    })();
    await this.#running;
    this.#running = null;
    if (this.#again) {
      this.#again = false;
      next = 0;
    }
    this.#schedule(next);
  }
}
