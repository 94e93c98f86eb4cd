import type { FastifyBaseLogger } from 'fastify';

/**
 * What the service stops at close, in the reverse order it was started:
 * workers before the queues they feed, queues before the targets they use,
 * and the database last. One list, so the order is written down, not left
 * to the order of hooks.
 */
export class Shutdown {
  readonly #steps: Array<{ name: string; run: () => Promise<unknown> | unknown }> = [];
  readonly #log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  add(name: string, run: () => Promise<unknown> | unknown): void {
    this.#steps.push({ name, run });
  }

  async run(): Promise<void> {
    for (const step of [...this.#steps].reverse()) {
      try {
        await step.run();
      } catch (err) {
        this.#log.warn({ err, step: step.name }, 'a shutdown step failed');
      }
    }
  }
}
