// What the shop opened, closed in the reverse order on every path: a start that fails half-way and a
// stop. One list, written as each service opens, so the two paths cannot drift apart (issue 30 item 10).

/** One opened service's closing step; calling it again does nothing. */
export type Closer = () => Promise<void>;

/**
 * @example
 * const opened = new OpenedServices();
 * const database = await openDatabase(…); opened.add('database', () => database.close());
 * try { …; } catch (error) { await opened.closeAll(logger); throw error; }
 */
export class OpenedServices {
  private readonly steps: { name: string; close: Closer }[] = [];

  /** Adds a service's closing step (last added, first closed); answers it, to call it early once. */
  add(name: string, close: () => Promise<unknown> | unknown): Closer {
    let done: Promise<void> | undefined;
    const once: Closer = () =>
      (done ??= Promise.resolve()
        .then(close)
        .then(() => undefined));
    this.steps.push({ name, close: once });
    return once;
  }

  /** The names in closing order (last opened first). */
  closingOrder(): string[] {
    return this.steps.map((step) => step.name).reverse();
  }

  /**
   * Closes everything still open, last opened first. A step that fails is logged and the rest still
   * close: a broken mail transport must not keep the database open.
   */
  async closeAll(logger?: { error(object: object, message: string): void }): Promise<void> {
    for (let step = this.steps.pop(); step; step = this.steps.pop()) {
      try {
        await step.close();
      } catch (error) {
        logger?.error({ err: error, service: step.name }, `closing ${step.name} failed`);
      }
    }
  }
}
