// Collects a phase's output up to a byte cap, keeping the beginning and the
// end (where errors usually are) and marking what was dropped in between.
export const DEFAULT_LOG_CAP_BYTES = 1024 * 1024;

export class CappedLog {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = 0;

  constructor(private readonly capBytes = DEFAULT_LOG_CAP_BYTES) {}

  write(chunk: Buffer): void {
    const half = Math.floor(this.capBytes / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > half && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.dropped += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.dropped += excess;
      }
    }
  }

  get truncated(): boolean {
    return this.dropped > 0;
  }

  toString(): string {
    const marker = this.truncated ? `\n[... ${this.dropped} bytes of output truncated ...]\n` : '';
    return Buffer.concat(this.head).toString('utf8') + marker + Buffer.concat(this.tail).toString('utf8');
  }
}
