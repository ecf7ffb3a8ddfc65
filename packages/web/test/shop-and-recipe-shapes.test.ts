import { parseDocument, textOf } from '../src/content/dom';
import { removeChrome } from '../src/content/clean';

const cleaned = (html: string): string => {
  const document = parseDocument(html);
  removeChrome(document);
  return textOf(document.body);
};

describe('a checklist written as checkbox labels', () => {
  const item = (id: string, line: string) => `<p><input type="checkbox" id="${id}"><label for="${id}"><span>${line}</span></label></p>`;

  it('keeps the labels of three or more checkboxes outside a form (a recipe’s ingredients)', () => {
    const text = cleaned(
      `<body><main><h1>Skillet</h1><section><h2>Ingredients</h2>` +
        item('i0', '2 tablespoons olive oil') +
        item('i1', '1 large onion, diced') +
        `<p><label><input type="checkbox"> 3 cloves garlic, minced</label></p></section></main></body>`,
    );
    expect(text).toContain('2 tablespoons olive oil');
    expect(text).toContain('1 large onion, diced');
    expect(text).toContain('3 cloves garlic, minced');
  });

  it('still drops a lone checkbox label, a form’s labels and toggles with several labels each', () => {
    expect(cleaned('<body><main><h1>Drive</h1><p>Fast.</p><label><input type="checkbox"> Compare</label></main></body>')).not.toContain(
      'Compare',
    );
    const form =
      '<form action="/subscribe">' +
      ['a', 'b', 'c'].map((id) => `<input type="checkbox" id="${id}"><label for="${id}">Topic ${id}</label>`).join('') +
      '</form>';
    expect(cleaned(`<body><main><h1>News</h1><p>Story.</p>${form}</main></body>`)).not.toContain('Topic');
    const toggles =
      '<input type="checkbox" id="nav"><input type="checkbox" id="toc">' +
      '<label for="nav">Hide navigation</label><label for="toc">Hide contents</label><label for="nav">Toggle navigation</label><label for="toc">Toggle contents</label>';
    expect(cleaned(`<body>${toggles}<main><h1>Docs</h1><p>Text.</p></main></body>`)).not.toMatch(/Hide|Toggle/);
  });
});
