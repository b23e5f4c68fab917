/**
 * A least-recently-used map bounded by entry count and by total weight (characters of the cached text), with
 * single-flight loading: concurrent `load`s of the same key share one computation. The api's derived-data caches
 * (list answers, totals, per-row JSON, rendered feeds) are all of this kind: keyed by what makes them exact (the
 * data version among it), so they never expire, they only age out.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly loading = new Map<string, Promise<V>>();
  private weight = 0;

  constructor(
    private readonly limits: {
      /** Most entries kept. */
      entries: number;
      /** Most total weight kept (0: cache nothing); one entry heavier than this is still kept alone. */
      weight: number;
      /** Weight of one value (default 1: the entry count alone bounds the cache). */
      weigh?: (value: V) => number;
    },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, value: V): void {
    if (this.limits.weight <= 0 || this.limits.entries <= 0) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.weight -= this.weigh(old);
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.weight += this.weigh(value);
    while (this.entries.size > this.limits.entries || (this.weight > this.limits.weight && this.entries.size > 1)) {
      const [oldKey, oldValue] = this.entries.entries().next().value as [string, V];
      this.entries.delete(oldKey);
      this.weight -= this.weigh(oldValue);
    }
  }

  /** The value if cached, or the computation under way; undefined when a `load` would compute it. */
  peek(key: string): V | Promise<V> | undefined {
    return this.get(key) ?? this.loading.get(key);
  }

  /**
   * The value of `key`: cached, or joined while another caller computes it, or computed now (and stored unless `keep`
   * says no; a failed computation is not cached). `onMiss` runs (and may throw, refusing the request) only when this
   * caller would start the computation.
   */
  async load(key: string, compute: () => Promise<V>, keep: (value: V) => boolean = () => true, onMiss?: () => Promise<void>): Promise<V> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const running = this.loading.get(key);
    if (running) return running;
    if (onMiss) {
      await onMiss();
      // Another caller may have started (or finished) it while the miss was counted.
      const now = this.get(key) ?? this.loading.get(key);
      if (now !== undefined) return now;
    }
    const promise = compute().then((value) => {
      if (keep(value)) this.set(key, value);
      return value;
    });
    this.loading.set(key, promise);
    try {
      return await promise;
    } finally {
      this.loading.delete(key);
    }
  }

  private weigh(value: V): number {
    return this.limits.weigh ? this.limits.weigh(value) : 1;
  }
}
