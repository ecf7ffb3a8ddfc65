/** Content from the element a CSS selector names (a watch's `selector`) instead of the main content. */
import { createContentExtractor } from '../src/content/page-content';

const PAGE = `<html><head><title>Shop</title><base href="https://shop.example/catalog/"></head><body>
<nav><a href="/">Home</a></nav><main><h1>Widgets</h1><p>All our widgets, hand made and tested one by one before they ship.</p>
<table id="prices"><tr><th>Item</th><th>Price</th></tr><tr><td><a href="blue">Blue</a></td><td>10 EUR</td></tr></table></main>
<footer id="legal">Prices include VAT.</footer></body></html>`;

describe('selected content', () => {
  const extractor = createContentExtractor();

  it('takes markdown, text and the element’s own HTML from the first match, links made absolute', () => {
    const content = extractor.extract(PAGE, 'https://shop.example/catalog/widgets', {
      markdown: true,
      text: true,
      html: true,
      selector: '#prices',
    });
    expect(content.selectorMatched).toBe(true);
    expect(content.markdown).toBe('| Item | Price |\n| --- | --- |\n| [Blue](https://shop.example/catalog/blue) | 10 EUR |');
    expect(content.text).toBe('Item\tPrice\nBlue\t10 EUR');
    expect(content.contentHtml).toMatch(/^<table id="prices">.*href="https:\/\/shop\.example\/catalog\/blue".*<\/table>$/s);
    expect(content.title).toBe('Shop');
  });

  it('can select page chrome that the main content leaves out', () => {
    expect(extractor.extract(PAGE, 'https://shop.example/', { markdown: true, selector: 'footer' }).markdown).toBe('Prices include VAT.');
  });

  it('says when nothing matches, and gives no content then', () => {
    const content = extractor.extract(PAGE, 'https://shop.example/', { markdown: true, selector: '.missing' });
    expect(content.selectorMatched).toBe(false);
    expect(content.markdown).toBeUndefined();
    expect(content.links).toContain('https://shop.example/');
  });
});
