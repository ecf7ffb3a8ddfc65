import { parseDocument, textOf } from '../src/content/dom';
import { pruneBuyBox } from '../src/content/buy-box';
import { createContentExtractor } from '../src/content/page-content';

const text = (html: string) => createContentExtractor().extract(html, 'https://shop.example/p/1', { text: true }).text ?? '';

const DESCRIPTION = [
  'Termika KV-17 to czajnik ze stali nierdzewnej z elektroniczną regulacją temperatury w zakresie od 40 do 100 stopni, z pięcioma ustawieniami.',
  'Po osiągnięciu wybranej temperatury czajnik może utrzymywać ją przez 30 minut; podwójne ścianki sprawiają, że obudowa pozostaje chłodna.',
];

/** Allegro's shape, in Polish: the buy box's lines are known by where they stand, not by their words. */
const KETTLE =
  '<html><head><title>Czajnik Termika KV-17</title></head><body><header><nav><a href="/">Allegro</a></nav></header><main>' +
  '<div class="summary"><div class="header"><span>Termika</span><h1>Czajnik elektryczny Termika KV-17 1,7 l</h1>' +
  '<div><span>4,84</span><a href="#reviews">312 ocen</a></div><div>1 480 osób kupiło ostatnio</div></div>' +
  '<div class="price"><div><span>189</span><span>,00</span> <span>zł</span></div><div>z dostawą od 198,99 zł</div></div>' +
  '<div class="variants"><div>Kolor: <span>srebrny</span></div><div role="radiogroup"><button role="radio">srebrny</button><button role="radio">czarny</button></div></div>' +
  '<div class="stock">Dostępny</div>' +
  '<div class="buy"><input type="number" value="1"><button type="button" data-analytics-interaction-label="AddToCart">Dodaj do koszyka</button></div>' +
  '<div class="delivery"><p>Dostawa jutro — zamów do 16:00</p><p>Zwrot: 14 dni, darmowy</p></div>' +
  '<div class="seller"><p>od <a href="/u/agd">AGD_Stacja</a> · Super Sprzedawca · 99,4% poleca</p></div></div>' +
  '<div class="params"><h2>Parametry</h2><table><tr><td>Moc</td><td>2200 W</td></tr><tr><td>Pojemność</td><td>1,7 l</td></tr></table></div>' +
  `<div class="opis"><h2>Opis</h2>${DESCRIPTION.map((p) => `<p>${p}</p>`).join('')}</div></main></body></html>`;

describe('a shop page’s buy box', () => {
  it('goes, whatever its language, but for the title, the price, the stock status and the product’s own sections', () => {
    const out = text(KETTLE);
    for (const kept of ['Czajnik elektryczny Termika KV-17 1,7 l', '189,00 zł', 'Dostępny', 'Moc', '2200 W', ...DESCRIPTION])
      expect(out).toContain(kept);
    for (const gone of ['312 ocen', 'osób kupiło', 'z dostawą od', 'Kolor', 'Dostawa jutro', 'Zwrot: 14 dni', 'Super Sprzedawca']) {
      expect(out).not.toContain(gone);
    }
  });

  it('keeps the current price, not the struck-through or "regular" one before it', () => {
    const document = parseDocument(
      '<body><main><div><h1>Paella pan</h1><div class="prices"><span class="regular-price">€39.90</span>' +
        '<div class="current-price"><span>€34.90</span></div></div><form action="/cart"><button>Add to cart</button></form></div><p>x</p></main></body>',
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    expect(textOf(document.body)).toContain('€34.90');
    expect(textOf(document.body)).not.toContain('€39.90');
  });

  it('keeps a plain list of features before the control, not a variant picker’s list of buttons nor a list of prices', () => {
    const document = parseDocument(
      '<body><main><div><h1>Stoneware mug</h1><ul><li>Dishwasher safe</li><li>Holds 350 ml</li></ul>' +
        '<ul><li><span class="a-button">500 ml</span></li><li><span class="a-button">750 ml</span></li></ul>' +
        '<ul><li>Was £24.00</li><li>Now £18.00</li></ul>' +
        '<button class="add-to-cart">Add</button><ul><li>Free returns</li><li>Pay on invoice</li></ul>' +
        '<div class="product-description"><p>Thrown by hand.</p></div></div></main></body>',
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    const out = textOf(document.body);
    for (const kept of ['Dishwasher safe', 'Holds 350 ml', 'Now £18.00', 'Thrown by hand.']) expect(out).toContain(kept);
    for (const gone of ['500 ml', 'Was £24.00', 'Free returns', 'Pay on invoice']) expect(out).not.toContain(gone);
  });

  it('stops at a list of features after the control, however many of its items quote a percentage', () => {
    const features = [
      'Made with 100% wholegrain oats',
      'Contains 30% less sugar than our original recipe',
      'Source of fibre: 8% of your daily intake',
    ];
    const document = parseDocument(
      `<body><main><div><h1>Oat granola 500 g</h1><p>£3.50</p><button>Add to basket</button><p>Free delivery over £50</p>` +
        `<ul>${features.map((item) => `<li>${item}</li>`).join('')}</ul><p>Short line.</p></div></main></body>`,
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    const out = textOf(document.body);
    for (const kept of features) expect(out).toContain(kept);
    expect(out).not.toContain('Free delivery');
  });

  it('stops where the product’s content begins after the control', () => {
    const document = parseDocument(
      '<body><main><div><h1>Kettle</h1><button>Add to basket</button><p>Free delivery over £50</p>' +
        '<h2>Features</h2><p>Short line of the features.</p></div></main></body>',
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    const out = textOf(document.body);
    expect(out).not.toContain('Free delivery');
    expect(out).toContain('Short line of the features.');
  });

  it('leaves the page alone when the title and the control meet only at the body (a sticky bar’s control)', () => {
    const document = parseDocument(
      '<body><div class="bar"><button>Add to cart</button></div><main><h1>Kettle</h1><p>Only £49.99 this week</p><p>Brushed steel.</p></main></body>',
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    expect(textOf(document.body)).toContain('Brushed steel.');
    expect(textOf(document.body)).toContain('Only £49.99 this week');
  });
});
