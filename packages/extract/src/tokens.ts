import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

/** Counts and cuts text in model tokens (cl100k_base: close enough for budgeting any chat model). */
export interface TokenCounter {
  count(text: string): number;
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

/** Builds a counter from the ranks shipped inside js-tiktoken (no network). Takes ~0.3 s: build once. */
export function createTokenCounter(): TokenCounter {
  const encoder = new Tiktoken(cl100kBase);
  return {
    count: (text) => encoder.encode(text).length,
    encode: (text) => encoder.encode(text),
    decode: (tokens) => encoder.decode(tokens),
  };
}

let shared: TokenCounter | undefined;

/**
 * A process-wide counter, built on first use. The rank table is immutable data that costs ~0.3 s
 * to load, so it is memoised rather than rebuilt per job; nothing happens on import.
 */
export function sharedTokenCounter(): TokenCounter {
  shared ??= createTokenCounter();
  return shared;
}

export interface TokenBudget {
  /** Tokens of page markdown kept per page; the rest is cut off. */
  pageTokens: number;
  /** Tokens of page markdown sent in one model call. */
  chunkTokens: number;
}

export const DEFAULT_TOKEN_BUDGET: TokenBudget = { pageTokens: 24_000, chunkTokens: 6_000 };

export interface PreparedPage {
  chunks: string[];
  /**
   * Tokens of the page before trimming (of the part read: a huge page is cut by characters
   * first); undefined for a page short enough to need no counting.
   */
  tokens: number | undefined;
  trimmed: boolean;
}

// A token is at least one byte, so text this short fits without encoding it. Text far beyond
// the page budget is cut by characters first so a huge page never gets fully encoded.
const MAX_CHARS_PER_TOKEN = 32;

/**
 * Trims page markdown to `budget.pageTokens` and splits it into chunks of at most
 * `budget.chunkTokens`, on paragraph boundaries where it can (a paragraph longer than a chunk is
 * cut by tokens).
 */
export function preparePage(markdown: string, budget: TokenBudget, tokens: TokenCounter): PreparedPage {
  if (Buffer.byteLength(markdown) <= budget.chunkTokens) {
    return { chunks: markdown.trim() ? [markdown] : [], tokens: undefined, trimmed: false };
  }
  const bounded = markdown.slice(0, budget.pageTokens * MAX_CHARS_PER_TOKEN);
  const encoded = tokens.encode(bounded);
  const trimmed = encoded.length > budget.pageTokens || bounded.length < markdown.length;
  const kept = encoded.length > budget.pageTokens ? tokens.decode(encoded.slice(0, budget.pageTokens)) : bounded;
  return { chunks: splitIntoChunks(kept, budget.chunkTokens, tokens), tokens: encoded.length, trimmed };
}

function splitIntoChunks(text: string, chunkTokens: number, tokens: TokenCounter): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let currentTokens = 0;
  const flush = () => {
    const joined = current.join('\n\n').trim();
    if (joined) chunks.push(joined);
    current = [];
    currentTokens = 0;
  };

  for (const paragraph of text.split(/\n{2,}/)) {
    const size = tokens.count(paragraph) + 1;
    if (size > chunkTokens) {
      flush();
      const encoded = tokens.encode(paragraph);
      for (let start = 0; start < encoded.length; start += chunkTokens) {
        const piece = tokens.decode(encoded.slice(start, start + chunkTokens));
        if (piece.trim()) chunks.push(piece);
      }
      continue;
    }
    if (currentTokens + size > chunkTokens) flush();
    current.push(paragraph);
    currentTokens += size;
  }
  flush();
  return chunks;
}
