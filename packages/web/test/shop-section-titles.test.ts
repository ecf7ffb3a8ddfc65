import { parseDocument, textOf } from '../src/content/dom';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { isSectionTitle } from '../src/content/section-titles';
import { createContentExtractor } from '../src/content/page-content';

const text = (html: string) => createContentExtractor().extract(html, 'https://shop.example/p/1', { text: true }).text ?? '';
const first = (html: string): Element => parseDocument(`<body>${html}</body>`).body.querySelector('[data-t]')!;

const PROSE =
  'The cooker is built from three bonded layers: stainless steel inside and out, with an aluminium core in between that spreads heat evenly. ' +
  'The outer-lid design opens fully so the cooker is easy to fill and clean, and a pressure indicator shows when it is safe to open. ';

const SECTIONS =
  '<div class="_1a"><div class="_2M">Ratings &amp; Reviews</div><div class="col"><p class="_2x">Worth every penny</p>' +
  '<div>Heats evenly, no burning at the bottom. Whistle is loud though.</div><p>Ritika S.</p></div></div>' +
  '<div class="_1a"><div class="_2M">Questions and Answers</div><div><div>Q: Can I use it on induction?</div><div>A: Yes, it is compatible.</div></div></div>' +
  '<div class="_1a"><div class="_2a">Seller</div><div><span>KITCHENMART RETAIL</span></div><ul><li>7 Days Replacement Policy</li></ul></div>';

describe('a section title written as a block', () => {
  it('is a short line of bare text that opens its box, or one marked as a heading', () => {
    expect(isSectionTitle(first('<div><div data-t>Ratings &amp; Reviews</div><div>…</div></div>'))).toBe(true);
    expect(isSectionTitle(first('<div><span data-t role="heading" aria-level="2">Reviews</span></div>'))).toBe(true);
    expect(isSectionTitle(first('<div><p>Intro</p><div data-t class="box-title">Reviews</div></div>'))).toBe(true);
    expect(isSectionTitle(first('<div><p>Intro</p><div data-t><strong>Reviews</strong></div></div>'))).toBe(true);
    // Not: a line after other text, a sentence, a link, a box's only line.
    expect(isSectionTitle(first('<div><p>Intro</p><div data-t>Reviews</div><div>…</div></div>'))).toBe(false);
    expect(isSectionTitle(first('<div><div data-t>Reviews are in.</div><div>…</div></div>'))).toBe(false);
    expect(isSectionTitle(first('<div><div data-t><a href="#r">Reviews</a></div><div>…</div></div>'))).toBe(false);
    expect(isSectionTitle(first('<div><div data-t>Reviews</div></div>'))).toBe(false);
  });

  it('opens a shop page’s reviews, Q&A and seller sections, which go with it', () => {
    const root = parseDocument(
      `<body><div id="c"><h1>Tri-Ply Pressure Cooker</h1><div class="_1a"><div class="_2b">Description</div><p>${PROSE}</p></div>${SECTIONS}</div></body>`,
    ).getElementById('c')!;
    pruneBoilerplate(root, { shop: true, reviewed: true });
    const out = textOf(root);
    for (const gone of [
      'Ratings & Reviews',
      'Worth every penny',
      'Heats evenly',
      'Ritika',
      'Questions and Answers',
      'induction?',
      'KITCHENMART',
      'Replacement',
    ])
      expect(out).not.toContain(gone);
    for (const kept of ['Description', 'three bonded layers']) expect(out).toContain(kept);
  });

  it('is judged as a heading only on a page about something readers buy or review', () => {
    const title = first('<div><div data-t>Ratings &amp; Reviews</div><div>Worth every penny</div></div>');
    expect(boilerplateReason(title, Infinity, { shop: true, reviewed: true })).toBe('thread heading');
    expect(boilerplateReason(title, Infinity, {})).toBeNull();
    const article =
      `<html><head><title>Notes</title></head><body><article><h1>Notes</h1><p>${PROSE}</p>` +
      `<div><div>Seller</div><div>The seller was a retired teacher who had kept the cooker for twenty years.</div></div><p>${PROSE}</p></article></body></html>`;
    expect(text(article)).toContain('retired teacher');
  });

  it.each([
    'Vragen en antwoorden',
    'Fragen und Antworten',
    'Questions et réponses',
    'Preguntas y respuestas',
    'Seller',
    'Verkäufer',
    'Sprzedawca',
  ])('takes "%s" for a shop section (acted on only on a shop page)', (heading) => {
    expect(boilerplateReason(first(`<div><h2 data-t>${heading}</h2></div>`), Infinity, { shop: true })).toBe('shop section');
  });
});
