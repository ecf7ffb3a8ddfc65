import { flattenRecord, formatOutput, toCsv, toMarkdown, toTable } from '../src';

describe('toCsv', () => {
  describe('formula injection (OWASP)', () => {
    it.each([
      ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
      ['+1+2', '"\'+1+2"'],
      ['-2+3', '"\'-2+3"'],
      ['@SUM(A1)', '"\'@SUM(A1)"'],
      ['\tcmd', '"\'\tcmd"'],
      ['\rcmd', '"\'\rcmd"'],
      ['\uFF1D1+2', '"\'\uFF1D1+2"'],
      ['-5', '"\'-5"'],
    ])('escapes the text cell %j', (cell, written) => {
      expect(toCsv([{ a: cell }])).toBe(`a\r\n${written}\r\n`);
    });

    it('leaves numbers, inner formula characters and plain text alone', () => {
      expect(toCsv([{ n: -5, m: 1e21, x: 'a=b', y: 'x-1', z: "it's" }])).toBe("n,m,x,y,z\r\n-5,1e+21,a=b,x-1,it's\r\n");
      expect(toCsv([{ n: -1e21 }])).toBe('n\r\n-1e+21\r\n');
    });

    it('escapes header cells and joined lists too', () => {
      expect(toCsv([{ '=cmd': 1, tags: ['=a', 'b'] }])).toBe('"\'=cmd",tags\r\n1,"\'=a; b"\r\n');
    });

    it('escapes the scalar value column', () => {
      expect(toCsv(['@x', 3])).toBe('value\r\n"\'@x"\r\n3\r\n');
    });
  });

  it('writes RFC 4180: header row, CRLF, quoting of commas, quotes and line breaks', () => {
    const csv = toCsv([
      { name: 'Widget, large', note: 'says "hi"', text: 'line 1\nline 2', price: 9.5, ok: true, none: null },
      { name: 'Plain', note: '', text: 'cr\ronly', price: 0, ok: false, none: null },
    ]);
    expect(csv).toBe(
      'name,note,text,price,ok,none\r\n' +
        '"Widget, large","says ""hi""","line 1\nline 2",9.5,true,\r\n' +
        'Plain,,"cr\ronly",0,false,\r\n',
    );
  });

  it('flattens nested fields with dots and joins lists of plain values', () => {
    const csv = toCsv([
      { title: 'A', price: { amount: 5, currency: 'EUR' }, tags: ['x', 'y'], variants: [{ size: 'S' }] },
      { title: 'B', author: { name: 'Z' } },
    ]);
    const [header, first, second] = csv.split('\r\n');
    expect(header).toBe('title,price.amount,price.currency,tags,variants,author.name');
    expect(first).toBe('A,5,EUR,x; y,"[{""size"":""S""}]",');
    expect(second).toBe('B,,,,,Z');
  });

  it('uses the main array of an object result as the rows', () => {
    const csv = toCsv({ site: 'Example', meta: { count: 2 }, products: [{ name: 'A' }, { name: 'B' }], links: ['x'] });
    expect(csv).toBe('name\r\nA\r\nB\r\n');
  });

  it('finds the main array inside a nested object and prefers the longest list', () => {
    const table = toTable({ data: { featured: [{ n: 1 }], all: [{ n: 1 }, { n: 2 }, { n: 3 }] } });
    expect(table.rows).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('writes one row for a single object and a value column for plain lists', () => {
    expect(toCsv({ name: 'A', tags: ['a', 'b'] })).toBe('name,tags\r\nA,a; b\r\n');
    expect(toCsv(['x', 'y,z'])).toBe('value\r\nx\r\n"y,z"\r\n');
    expect(toCsv([])).toBe('');
  });
});

describe('flattenRecord', () => {
  it('keeps empty objects as an empty column', () => {
    expect(flattenRecord({ a: {}, b: { c: { d: 1 } } })).toEqual({ a: null, 'b.c.d': 1 });
  });
});

describe('toMarkdown', () => {
  it('renders a list of records as a table with pipes and line breaks escaped', () => {
    expect(
      toMarkdown([
        { name: 'A|B', note: 'x\ny' },
        { name: 'C', price: { amount: 2 } },
      ]),
    ).toBe('| name | note | price.amount |\n| --- | --- | --- |\n| A\\|B | x<br>y |  |\n| C |  | 2 |\n');
  });

  it('renders objects as a list of fields and headings for nested parts', () => {
    const markdown = toMarkdown({
      title: 'Shop',
      rating: 4.5,
      products: [{ name: 'A', price: 1 }],
      tags: ['new', 'sale'],
      owner: { name: 'Z', address: { city: 'Paris' } },
    });
    expect(markdown).toBe(
      [
        '- **title:** Shop',
        '- **rating:** 4.5',
        '',
        '## products',
        '',
        '| name | price |',
        '| --- | --- |',
        '| A | 1 |',
        '',
        '## tags',
        '',
        '- new',
        '- sale',
        '',
        '## owner',
        '',
        '- **name:** Z',
        '',
        '### address',
        '',
        '- **city:** Paris',
        '',
      ].join('\n'),
    );
  });
});

describe('formatOutput', () => {
  it('passes json through and renders csv and markdown as text', () => {
    const data = { items: [{ a: 1 }] };
    expect(formatOutput(data, 'json')).toBe(data);
    expect(formatOutput(data, 'csv')).toBe('a\r\n1\r\n');
    expect(formatOutput(data, 'markdown')).toBe('## items\n\n| a |\n| --- |\n| 1 |\n');
  });
});
