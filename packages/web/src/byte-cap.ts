/**
 * Byte caps on page bodies kept in a result (RESULT_PAGE_MAX_BYTES, RESULT_MAX_BYTES). Text is cut
 * at a character boundary, so a cut body is still valid UTF-8.
 */
const encoder = new TextEncoder();

export interface CappedText {
  text: string;
  bytes: number;
  truncated: boolean;
}

export function capBytes(text: string, maxBytes: number): CappedText {
  const limit = Math.max(0, Math.floor(maxBytes));
  // Every UTF-16 unit is at most 3 UTF-8 bytes: short text needs no encoding at all.
  if (text.length * 3 <= limit) return { text, bytes: Buffer.byteLength(text), truncated: false };
  const bytes = Buffer.byteLength(text);
  if (bytes <= limit) return { text, bytes, truncated: false };
  const buffer = new Uint8Array(limit);
  const { read, written } = encoder.encodeInto(text, buffer);
  return { text: text.slice(0, read), bytes: written, truncated: true };
}

/**
 * A job-wide byte budget shared by its pages: each body takes what it needs up to the per-page cap
 * and what is left of the job's budget.
 */
export class ByteBudget {
  private used = 0;
  /** Whether a body was cut because the job's budget ran out. */
  exhausted = false;

  constructor(
    readonly pageMaxBytes: number,
    readonly jobMaxBytes: number,
  ) {}

  /** Caps the bodies of one page, in order; the page's cap is shared by its bodies. */
  takePage(bodies: readonly string[]): { bodies: string[]; truncated: boolean } {
    let pageLeft = this.pageMaxBytes;
    let truncated = false;
    const kept = bodies.map((body) => {
      const jobLeft = Math.max(0, this.jobMaxBytes - this.used);
      const capped = capBytes(body, Math.min(pageLeft, jobLeft));
      if (capped.truncated) {
        truncated = true;
        if (jobLeft < pageLeft) this.exhausted = true;
      }
      pageLeft -= capped.bytes;
      this.used += capped.bytes;
      return capped.text;
    });
    return { bodies: kept, truncated };
  }
}
