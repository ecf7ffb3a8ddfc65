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

describe('content scope (only_main_content, include_selectors, exclude_selectors)', () => {
  const extractor = createContentExtractor();
  const ARTICLE = `<html><head><title>News</title></head><body>
<nav><a href="/">Home</a> <a href="/world">World</a></nav>
<main><article><h1>River levels fall</h1>
<p>River levels across the valley fell for the third day running, and the flood warnings were lifted this morning.</p>
<div class="share-box">Share this story</div>
<p>Farmers say the fields will take weeks to dry, but the roads to the villages are open again.</p>
<aside class="related"><a href="/older">Older story</a></aside>
<p>The weather service expects a dry week, with sun in the afternoons and cool nights.</p></article></main>
<footer id="legal">© News Ltd</footer><script>window.x = 1</script></body></html>`;
  const extract = (request: Parameters<typeof extractor.extract>[2]) => extractor.extract(ARTICLE, 'https://news.example/river', request);

  it('only_main_content false: the whole page, navigation and footer too, never scripts', () => {
    const main = extract({ text: true }).text!;
    expect(main).not.toContain('Home');
    expect(main).not.toContain('News Ltd');
    const whole = extract({ text: true, mainContent: false }).text!;
    expect(whole).toContain('Home');
    expect(whole).toContain('River levels across the valley');
    expect(whole).toContain('© News Ltd');
    expect(whole).not.toContain('window.x');
    expect(extract({ markdown: true, mainContent: false }).markdown).toContain('[World](https://news.example/world)');
  });

  it('include_selectors: the matching elements in page order, outermost only, links absolute', () => {
    const content = extract({ markdown: true, html: true, includeSelectors: ['#legal', 'article h1', 'article'] });
    // article holds the h1: it is taken once, inside the article.
    expect(content.markdown!.match(/River levels fall/g)).toHaveLength(1);
    expect(content.markdown!.indexOf('River levels fall')).toBeLessThan(content.markdown!.indexOf('© News Ltd'));
    expect(content.markdown).toContain('[Older story](https://news.example/older)');
    expect(extract({ text: true, includeSelectors: ['.nothing-here'] }).text).toBe('');
  });

  it('exclude_selectors: matching elements leave the content (main or whole page); links still come from the whole page', () => {
    const content = extract({ text: true, excludeSelectors: ['p:nth-of-type(2)'] });
    expect(content.text).toContain('River levels across the valley');
    expect(content.text).not.toContain('Farmers say');
    expect(content.links).toContain('https://news.example/older');
    const whole = extract({ text: true, mainContent: false, excludeSelectors: ['nav', '#legal'] }).text!;
    expect(whole).not.toContain('Home');
    expect(whole).not.toContain('News Ltd');
    expect(whole).toContain('Farmers say');
    // Excluding wins over including.
    expect(extract({ text: true, includeSelectors: ['article'], excludeSelectors: ['.related'] }).text).not.toContain('Older story');
  });
});
