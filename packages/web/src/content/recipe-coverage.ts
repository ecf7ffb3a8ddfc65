/**
 * A cross-check for recipe pages: the ingredient lines the page declares (JSON-LD
 * recipeIngredient, microdata) must be in the extracted content. Readability scores each box of
 * a recipe page on its own, and where the ingredients sit in a box apart from the method
 * (a table of amounts, short lines, links to each ingredient) it keeps only the method. The page's
 * own main container holding the ingredients Readability's pick lacks is the better answer.
 */
import { comparable } from './coverage';

/** Ingredient lines a recipe declares at least, for the check to say anything. */
const MIN_INGREDIENTS = 3;
/** Share of the declared lines below which a text lacks the ingredient list. */
const LACKS = 0.5;
/** Share of the declared lines a container holds to have the ingredient list. */
const HOLDS = 0.8;

/** Share of `ingredients` found in `text` (both as letters and digits only). */
export function ingredientCoverage(ingredients: readonly string[], text: string): number {
  const lines = ingredients.map(comparable).filter((line) => line.length >= 3);
  if (lines.length === 0) return 0;
  const haystack = comparable(text);
  return lines.filter((line) => haystack.includes(line)).length / lines.length;
}

/**
 * Whether the extracted `articleText` lacks the recipe's ingredients that the page's
 * `containerText` (its main landmark or article) holds.
 */
export function missesIngredients(ingredients: readonly string[], articleText: string, containerText: string): boolean {
  if (ingredients.length < MIN_INGREDIENTS || !containerText) return false;
  return ingredientCoverage(ingredients, articleText) < LACKS && ingredientCoverage(ingredients, containerText) >= HOLDS;
}
