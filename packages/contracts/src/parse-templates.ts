import { OUTPUT_FORMATS, type JsonSchema, type OutputFormat } from './parse';

/** Bodies of `GET /v1/parse/templates` and `GET /v1/parse/examples` (spec 2.6 and 2.7), without the `success` envelope. */

export type TemplateName = 'workflow_prompt' | 'streaming' | 'schema_based';
export type ExampleName = 'blog_crawl_example' | 'product_scrape_example';

export interface ParseTemplates {
  templates: Record<TemplateName, string>;
  content_types: string[];
  output_formats: OutputFormat[];
}

export interface ParseExample {
  prompt: string;
  schema: JsonSchema;
}

export interface ParseExamples {
  examples: Record<ExampleName, ParseExample>;
}

/** A fresh object on every call, so a caller changing it cannot change the next answer. */
export function parseTemplates(): ParseTemplates {
  return {
    templates: {
      workflow_prompt:
        'Say what to extract and include the URL in the prompt, e.g. "Extract the product name, price and availability from https://example.com/products/42". Words like crawl, all pages or entire site make the service crawl the site; CSV, spreadsheet or table ask for CSV output, markdown for markdown.',
      streaming:
        'Send "stream": true to receive Server-Sent Events: a chunk as each stage starts (analyzing, scraping or crawling, extracting, formatting), a chunk with partial_results as each page is extracted, and the complete response as the last event.',
      schema_based:
        'Send a JSON schema in "schema" to get data of exactly that shape: nested objects, arrays, required fields and validation keywords such as pattern, minimum and maximum. Data that does not validate is returned as extracted, with a warning.',
    },
    content_types: ['any'],
    output_formats: [...OUTPUT_FORMATS],
  };
}

export function parseExamples(): ParseExamples {
  return {
    examples: {
      blog_crawl_example: {
        prompt: 'Crawl https://example.com/blog and extract the title, author, publish date, URL and summary of every blog post',
        schema: {
          type: 'object',
          properties: {
            posts: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  title: { type: 'string', minLength: 1 },
                  author: { type: ['string', 'null'] },
                  published_date: { type: ['string', 'null'], format: 'date' },
                  url: { type: 'string', format: 'uri' },
                  summary: { type: ['string', 'null'], maxLength: 1000 },
                },
                required: ['title'],
              },
            },
          },
          required: ['posts'],
        },
      },
      product_scrape_example: {
        prompt: 'Extract the product name, price, currency, availability, rating and features from https://example.com/products/widget',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string', minLength: 1 },
            price: { type: 'number', minimum: 0 },
            currency: { type: 'string', pattern: '^[A-Z]{3}$' },
            in_stock: { type: 'boolean' },
            rating: { type: ['number', 'null'], minimum: 0, maximum: 5 },
            features: { type: 'array', items: { type: 'string' } },
          },
          required: ['name', 'price'],
        },
      },
    },
  };
}
