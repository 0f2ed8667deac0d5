/**
 * One lane per channel in this process (per ticket for a ticket without a channel): a lane runs
 * its tasks one at a time, in the order they came, so a channel's messages go out in order, and
 * a provider that hangs or times out holds only its own lane, never another tenant's sends.
 *
 * A caller that must not wait (a `messages.deliver` job: a job slot held behind a hanging
 * channel is a slot taken from every other tenant) asks the lane's holder to drain instead
 * (`requestDrain`): before letting the lane go, the holder runs `drain(key)`, which sends what
 * came due on that channel meanwhile.
 */
export class SendLanes {
  private readonly lanes = new Map<string, { waiters: (() => void)[]; drain: boolean }>();

  constructor(
    private readonly drain: (key: string) => Promise<void>,
    private readonly onDrainError: (err: unknown, key: string) => void,
  ) {}

  busy(key: string): boolean {
    return this.lanes.has(key);
  }

  /** Lanes held right now. */
  busyKeys(): string[] {
    return [...this.lanes.keys()];
  }

  /** The lane's holder runs drain(key) before letting go. False when the lane is free. */
  requestDrain(key: string): boolean {
    const lane = this.lanes.get(key);
    if (lane) lane.drain = true;
    return lane !== undefined;
  }

  /** Runs `task` in the lane, after the tasks already in it. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let lane = this.lanes.get(key);
    if (lane) {
      const held = lane;
      await new Promise<void>((resolve) => held.waiters.push(resolve));
    } else {
      lane = { waiters: [], drain: false };
      this.lanes.set(key, lane);
    }
    try {
      return await task();
    } finally {
      this.release(key, lane);
    }
  }

  private release(key: string, lane: { waiters: (() => void)[]; drain: boolean }): void {
    const next = lane.waiters.shift();
    if (next) return next();
    if (lane.drain) {
      lane.drain = false;
      void this.drain(key)
        .catch((err) => this.onDrainError(err, key))
        .finally(() => this.release(key, lane));
      return;
    }
    this.lanes.delete(key);
  }
}
