/**
 * Concurrent callers asking for the same key share one running promise instead of each starting the
 * same work (an upstream query, a /me check, an idempotent mint).
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const current = this.running.get(key);
    if (current) return current;
    const promise = work().finally(() => this.running.delete(key));
    this.running.set(key, promise);
    return promise;
  }

  has(key: string): boolean {
    return this.running.has(key);
  }
}
