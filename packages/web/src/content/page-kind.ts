/**
 * What the page is, as far as the rules care. shop: it sells something (a seller's lines and a
 * shop's sections are boilerplate there); reviewed: readers review its subject (a product, a
 * recipe), so a bare "Reviews" heading opens their say, not a section of the article.
 */
export interface PageKind {
  shop?: boolean;
  reviewed?: boolean;
  /** A Q&A page or forum topic whose replies are its content (a "4 replies" heading goes, the replies stay). */
  thread?: boolean;
}
