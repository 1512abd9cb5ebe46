// A per-process memo of computed drift data, keyed by the query and the inputs' version the
// database keeps (input-version.ts). A write to any input, by any process, moves the version: the
// next read here computes afresh. Reads with the inputs unchanged share one computation, concurrent
// ones included. Entries of another version are dropped as soon as a read sees a new one.
export class DriftViewCache<T> {
  /** Computations started: reads that found nothing for their query at the current version. */
  recomputes = 0;
  // Per database client (tests and tools hold several); keys in least recently used order.
  private readonly scopes = new WeakMap<object, Map<string, { version: bigint; value: Promise<T> }>>();

  constructor(private readonly capacity: number) {}

  async get(scope: object, key: string, version: bigint | null, compute: () => Promise<T>): Promise<T> {
    if (version === null) {
      this.recomputes += 1;
      return compute();
    }
    let entries = this.scopes.get(scope);
    if (!entries) {
      entries = new Map();
      this.scopes.set(scope, entries);
    }
    const hit = entries.get(key);
    if (hit?.version === version) {
      entries.delete(key);
      entries.set(key, hit);
      return hit.value;
    }
    for (const [k, entry] of entries) if (entry.version !== version) entries.delete(k);
    this.recomputes += 1;
    const value = compute();
    entries.set(key, { version, value });
    while (entries.size > this.capacity) entries.delete(entries.keys().next().value!);
    // A failed computation is not kept: the next read tries again.
    const owner = entries;
    value.catch(() => {
      if (owner.get(key)?.value === value) owner.delete(key);
    });
    return value;
  }
}
