/**
 * Serialized list answers kept per owner while the owner's articles are unchanged.
 *
 * A list answer is a read of many articles (the whole list, the open ones through their index, or
 * a page) and the JSON of them: the heaviest calls the screens make, and /schedule repeats one
 * every 15 s (answered 304 while unchanged: http/articles.ts). The answer is reused for as long as the owner's `articlesVersion` is the one read before it was
 * built; it comes with the session's user, which every request reads strongly consistently
 * anyway. Every article write moves the version after it lands, so a changed list is never
 * served. Each process (Lambda container) keeps its own entries, bounded in size and age.
 */
export interface ListCacheOptions {
  /** Total characters of all answers kept; the least recently used go first. */
  maxChars?: number;
  /** An answer is rebuilt after this long even when the version has not moved. */
  maxAgeMs?: number;
  now?: () => number;
}

interface Entry {
  version: string;
  bodies: Map<string, string>;
  chars: number;
  createdAt: number;
}

export class ListCache {
  private readonly entries = new Map<string, Entry>();
  /** Answers being built, so that concurrent requests for the same one share the read. */
  private readonly building = new Map<string, Promise<string>>();
  private chars = 0;
  private readonly maxChars: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(options: ListCacheOptions = {}) {
    this.maxChars = options.maxChars ?? 64 * 1024 * 1024;
    this.maxAgeMs = options.maxAgeMs ?? 10 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The answer `which` for `owner` at `version`: kept, or built now and kept. Read `version`
   * before `build` reads the data: an answer then reflects at least every write its version counts.
   * `which` names one kind of answer: every build of it makes the same type T (say, the JsonText
   * of one answer type), which is what a kept one is returned as.
   */
  async get<T extends string>(owner: string, version: string, which: string, build: () => Promise<T>): Promise<T> {
    let entry = this.entries.get(owner);
    if (entry && (entry.version !== version || this.now() - entry.createdAt > this.maxAgeMs)) {
      this.drop(owner);
      entry = undefined;
    }
    const kept = entry?.bodies.get(which);
    if (kept !== undefined) {
      // Most recently used last.
      this.entries.delete(owner);
      this.entries.set(owner, entry!);
      return kept as T;
    }
    const key = JSON.stringify([owner, version, which]);
    const pending = this.building.get(key);
    if (pending) return pending as Promise<T>;
    const building = build().finally(() => this.building.delete(key));
    this.building.set(key, building);
    const body = await building;
    // A concurrent request may have kept an answer meanwhile: add to it under the same version, else replace it.
    let next = this.entries.get(owner);
    if (next && next.version !== version) {
      this.drop(owner);
      next = undefined;
    }
    next ??= { version, bodies: new Map<string, string>(), chars: 0, createdAt: this.now() };
    const replaced = next.bodies.get(which)?.length ?? 0;
    next.bodies.set(which, body);
    next.chars += body.length - replaced;
    this.chars += body.length - replaced;
    this.entries.delete(owner);
    this.entries.set(owner, next);
    for (const [key] of this.entries) {
      if (this.chars <= this.maxChars) break;
      this.drop(key);
    }
    return body;
  }

  private drop(owner: string): void {
    const entry = this.entries.get(owner);
    if (!entry) return;
    this.chars -= entry.chars;
    this.entries.delete(owner);
  }
}
