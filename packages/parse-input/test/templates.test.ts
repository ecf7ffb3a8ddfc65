import { parseExamples, parseTemplates } from '@sitelens/contracts';
import { compileUserSchema } from '../src';

describe('parse templates and examples', () => {
  it('lists exactly the templates, content types and output formats of spec 2.6', () => {
    const body = parseTemplates();
    expect(Object.keys(body.templates).sort()).toEqual(['schema_based', 'streaming', 'workflow_prompt']);
    for (const description of Object.values(body.templates)) expect(description.length).toBeGreaterThan(20);
    expect(body.content_types).toEqual(['any']);
    expect(body.output_formats).toEqual(['json', 'csv', 'markdown']);
  });

  it('lists exactly the examples of spec 2.7, each with a prompt holding a URL and a schema that compiles', () => {
    const { examples } = parseExamples();
    expect(Object.keys(examples).sort()).toEqual(['blog_crawl_example', 'product_scrape_example']);
    for (const example of Object.values(examples)) {
      expect(example.prompt).toMatch(/https:\/\/example\.com\//);
      expect(() => compileUserSchema(example.schema)).not.toThrow();
    }
  });

  it('example schemas accept matching data and reject wrong data', () => {
    const { examples } = parseExamples();
    const product = compileUserSchema(examples.product_scrape_example.schema).validate;
    expect(product({ name: 'Widget', price: 9.99, currency: 'EUR', in_stock: true, rating: 4.5, features: ['x'] })).toBe(true);
    expect(product({ name: 'Widget', price: -1 })).toBe(false);
    const blog = compileUserSchema(examples.blog_crawl_example.schema).validate;
    expect(blog({ posts: [{ title: 'Hello', url: 'https://example.com/blog/hello', published_date: '2024-05-01' }] })).toBe(true);
    expect(blog({ posts: [{ title: 'Hello', published_date: 'May 1st' }] })).toBe(false);
  });

  it('returns a fresh object each call', () => {
    const first = parseTemplates();
    first.output_formats.push('csv');
    expect(parseTemplates().output_formats).toEqual(['json', 'csv', 'markdown']);
  });
});
