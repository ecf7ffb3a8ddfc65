import { Unprocessable, type OutputFormat } from '@sitelens/contracts';
import { findUrls } from './find-urls';

export type ParseAction = 'scrape' | 'crawl';

export interface PromptAnalysis {
  /** Absolute http(s) URLs found in the prompt, deduplicated, in order of appearance. */
  urls: string[];
  action: ParseAction;
  outputFormat: OutputFormat;
  /** Where the output format came from: the request field, words in the prompt, or the default. */
  outputFormatSource: 'request' | 'prompt' | 'default';
}

// Spec section 3: "crawl, all pages, entire site" pick crawl; everything else scrapes.
const CRAWL_WORDS = [
  /\bcrawl(?:s|ed|ing|er)?\b/,
  /\bspider(?:ing)?\b/,
  /\b(?:all|every|each)(?: of)?(?: the)? (?:\w+ )?(?:pages|subpages|sub-pages|posts|articles|entries|stories|chapters|docs|documents|sections|listings)\b/,
  /\b(?:every|each) (?:\w+ )?(?:page|subpage|post|article|entry|story|chapter)\b/,
  /\b(?:entire|whole|full|complete) (?:web ?)?site\b/,
  /\b(?:site|website)[- ]wide\b/,
  /\bacross (?:the )?(?:web ?)?site\b/,
  /\bfollow(?:ing)? (?:the |all |every )?links\b/,
];

// Checked in order; the first hit wins. An explicit "csv" beats a "json" mentioned as a source,
// and "markdown table" is markdown, so markdown is checked before the bare word "table".
const FORMAT_WORDS: [OutputFormat, RegExp][] = [
  ['csv', /\b(?:csv|spreadsheets?|excel|xlsx)\b/],
  ['markdown', /\bmarkdown\b/],
  ['csv', /\b(?:tables?|tabular|rows and columns)\b/],
  ['json', /\b(?:json|structured data|structured output)\b/],
];

/**
 * Deterministic reading of a parse prompt (no model call): the URLs to visit, whether to crawl
 * or scrape, and the output format. `requested.outputFormat` (the request's explicit field) wins
 * over words in the prompt; without either the format is json. Throws `Unprocessable` (422) when
 * the prompt names no URL.
 */
export function analyzePrompt(prompt: string, requested: { outputFormat?: OutputFormat } = {}): PromptAnalysis {
  const { urls, rest } = findUrls(prompt);
  if (urls.length === 0) {
    throw new Unprocessable(
      'The prompt contains no URL to parse; include the address of the page or site, for example "Extract the product names from https://example.com/products"',
    );
  }
  const words = rest.toLowerCase();
  const action: ParseAction = CRAWL_WORDS.some((pattern) => pattern.test(words)) ? 'crawl' : 'scrape';

  if (requested.outputFormat !== undefined) {
    return { urls, action, outputFormat: requested.outputFormat, outputFormatSource: 'request' };
  }
  const fromWords = FORMAT_WORDS.find(([, pattern]) => pattern.test(words));
  if (fromWords) return { urls, action, outputFormat: fromWords[0], outputFormatSource: 'prompt' };
  return { urls, action, outputFormat: 'json', outputFormatSource: 'default' };
}
