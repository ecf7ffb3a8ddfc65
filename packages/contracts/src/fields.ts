import { parse as parseCssSelector } from 'css-what';
import { z } from 'zod';

/** Field builders shared by request schemas, so every route words its rules the same way. */

export const MAX_URL_LENGTH = 2048;

/** An absolute http(s) URL. Scheme-less input is rejected here; parse prompts do their own finding. */
export const httpUrl = () =>
  z
    .string({ error: 'must be a string holding an http or https URL' })
    .trim()
    .min(1, 'is required')
    .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, 'must be an absolute http or https URL');

/** One of a fixed list of words; the message lists them. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });

/** Query-string booleans: "true"/"false"/"1"/"0" as well as real booleans from JSON bodies. */
export const queryBoolean = () =>
  z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((value) => value === true || value === 'true' || value === '1');

/** Query-string integers: digits only, bounded. */
export const queryInt = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`);

export const boundedInt = (min: number, max: number) =>
  z
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be between ${min} and ${max}`)
    .max(max, `must be between ${min} and ${max}`);

/** True when css-what can parse the selector; the page's DOM still has the final word. */
export function isCssSelector(value: string): boolean {
  try {
    parseCssSelector(value);
    return true;
  } catch {
    return false;
  }
}

/** A CSS selector string, its syntax checked. */
export const cssSelector = (maxLength: number) =>
  z
    .string({ error: 'must be a CSS selector string' })
    .trim()
    .min(1, 'must not be empty')
    .max(maxLength, `must be at most ${maxLength} characters`)
    .refine(isCssSelector, 'is not a valid CSS selector');
