import { parseDocument } from '../src/content/dom';
import { withImpliedTags } from '../src/content/implied-tags';
import { createContentExtractor } from '../src/content/page-content';

const PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking in the town centre. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of adult social care this year. ';

describe('the head and body tags a page leaves out', () => {
  it.each([
    ['no <head>', '<!DOCTYPE html><html lang="en"><meta charset="utf-8"><title>Budget</title><body><p>hello</p></body></html>'],
    ['no <head> and no <body>', '<!DOCTYPE html><html><title>Budget</title><p>hello</p></html>'],
    ['no <body>', '<!DOCTYPE html><html><head><title>Budget</title></head><p>hello</p></html>'],
    ['no <html>, <head> or <body>', '<!doctype html><title>Budget</title><p>hello</p>'],
  ])('builds a document with its content in the body and its title in the head: %s', (_, html) => {
    const document = parseDocument(html);
    expect(document.body.innerHTML).toBe('<p>hello</p>');
    expect(document.title).toBe('Budget');
  });

  it('does not take a tag inside a head script or noscript for the start of the body', () => {
    const html = `<html><meta charset="utf-8"><script>if (a < b) write("<p>x</p>")</script><noscript><img src="/pixel"></noscript><div id="main">content</div></html>`;
    expect(withImpliedTags(html)).toContain('</noscript></head><body><div id="main">');
    expect(parseDocument(html).body.textContent).toBe('content');
  });

  it('leaves a page that writes both tags as it is, and puts a fragment in a body', () => {
    const full = '<!DOCTYPE html><html><head><title>t</title></head><body><p>ok</p></body></html>';
    expect(withImpliedTags(full)).toBe(full);
    expect(parseDocument('hello <b>world</b>').body.innerHTML).toBe('hello <b>world</b>');
  });

  it('extracts the article of a page without a head tag', () => {
    const out = createContentExtractor().extract(
      `<!DOCTYPE html><html><meta charset="utf-8"><title>Budget approved</title><body><nav><a href="/">Home</a></nav><article><h1>Budget approved</h1><p>${PROSE}</p><p>${PROSE}</p></article></body></html>`,
      'https://example.com/a',
      { text: true },
    );
    expect(out.title).toBe('Budget approved');
    expect(out.text).toContain('Councillors said');
  });
});

describe('section headings whose class names look like chrome to Readability', () => {
  it('keeps a heading named "groupheader" or "functionsHeader" in the content', () => {
    const out =
      createContentExtractor().extract(
        `<html><head><title>RingBuffer</title></head><body><main><h1>Class RingBuffer</h1>` +
          `<h2 class="groupheader">Detailed Description</h2><p>${PROSE}</p>` +
          `<section><h3 class="Documentation-functionsHeader" id="pkg-functions">Functions</h3><p>${PROSE}</p></section></main></body></html>`,
        'https://example.com/d',
        { text: true },
      ).text ?? '';
    expect(out).toContain('Detailed Description');
    expect(out).toContain('Functions');
  });
});
