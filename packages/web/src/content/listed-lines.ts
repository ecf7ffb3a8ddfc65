/**
 * A cross-check for lines a page lists apart from its prose: the ingredient lines a recipe
 * declares (JSON-LD recipeIngredient, microdata), a gallery's captions. Readability scores each
 * box of a page on its own, and where the ingredients sit in a box apart from the method (a table
 * of amounts, short lines, links to each ingredient), or the captioned photos in a grid apart from
 * the gallery's text, it keeps only the prose. The page's own main container holding the lines
 * Readability's pick lacks is the better answer.
 */
import { comparable } from './coverage';

/** Lines a page lists at least, for the check to say anything. */
const MIN_LINES = 3;
/** Share of the listed lines below which a text lacks the list. */
const LACKS = 0.5;
/** Share of the listed lines a container holds to have the list. */
const HOLDS = 0.8;

/** Share of `lines` found in `text` (both as letters and digits only). */
export function lineCoverage(listed: readonly string[], text: string): number {
  const lines = listed.map(comparable).filter((line) => line.length >= 3);
  if (lines.length === 0) return 0;
  const haystack = comparable(text);
  return lines.filter((line) => haystack.includes(line)).length / lines.length;
}

/**
 * Whether the extracted `articleText` lacks the listed lines (a recipe's ingredients, a
 * gallery's captions) that the page's `containerText` (its main landmark or article) holds.
 */
export function missesListedLines(lines: readonly string[], articleText: string, containerText: string): boolean {
  if (lines.length < MIN_LINES || !containerText) return false;
  return lineCoverage(lines, articleText) < LACKS && lineCoverage(lines, containerText) >= HOLDS;
}
