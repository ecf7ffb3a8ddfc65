import { parseDocument, textOf } from '../src/content/dom';
import { productTitle, pruneBuyBox } from '../src/content/buy-box';

/** Flipkart's shape: pictures and the buy buttons in a left column, the title and its lines in the right one. */
const columns = (right: string) =>
  '<body><div class="top">Shop</div>' +
  ('<div class="row"><div class="left"><img src="/a.jpg" alt="Cooker"><ul><li><button>ADD TO CART</button></li>' +
    '<li><form><button type="button">BUY NOW</button></form></li></ul></div>' +
    `<div class="right"><div><h1>Tri-Ply Pressure Cooker 5 L</h1></div>${right}</div></div>`) +
  '</body>';

const RIGHT =
  '<div class="rating"><span>4.3</span><span>14,220 Ratings</span></div>' +
  '<div class="prices"><div>₹1,649</div><div>₹2,495</div><div><span>33% off</span></div></div>' +
  '<div><span>+ ₹69 Secured Packaging Fee</span></div>' +
  '<div><div>Offers</div><div><ul><li><span>Bank Offer</span><span>5% Cashback on Axis Bank Card</span></li>' +
  '<li><span>Special Price</span><span>Get extra 12% off (inclusive of coupon)</span></li>' +
  '<li><span>Partner Offer</span><span>Pay Later benefits worth ₹20,000</span></li></ul></div></div>' +
  '<div><div>Highlights</div><ul><li>Tri-ply body with aluminium core</li><li>Works on induction and gas hobs</li>' +
  '<li>Outer lid with gasket release system</li></ul></div>' +
  '<div><div>Seller</div><div>KITCHENMART RETAIL</div></div>';

describe('a buy box whose controls stand before the title', () => {
  const prune = (html: string) => {
    const document = parseDocument(html);
    pruneBuyBox(document.body, document.querySelector('h1')!);
    return textOf(document.body);
  };

  it('takes the lines after the title, in the box of the product’s own columns, up to the product’s content', () => {
    const out = prune(columns(RIGHT));
    for (const kept of ['Tri-Ply Pressure Cooker 5 L', '₹1,649', 'Highlights', 'Tri-ply body with aluminium core', 'Seller'])
      expect(out).toContain(kept);
    for (const gone of ['14,220 Ratings', '₹2,495', '33% off', 'Packaging Fee', '5% Cashback', 'extra 12% off', 'worth ₹20,000'])
      expect(out).not.toContain(gone);
  });

  it('takes nothing after the title when the box holds the page’s landmarks (a sticky bar’s control at the top)', () => {
    const out = prune(
      '<body><div id="page"><header><nav><a href="/">Home</a></nav><div class="sticky"><button>Add to cart</button></div></header>' +
        `<main><h1>Tri-Ply Pressure Cooker 5 L</h1>${RIGHT}</main></div></body>`,
    );
    for (const kept of ['14,220 Ratings', '33% off', 'Packaging Fee', '5% Cashback']) expect(out).toContain(kept);
  });

  it('keeps a list of the product’s features that quotes a percentage in some items, not all', () => {
    const out = prune(
      columns(
        '<div>Details</div><div>Cheap line</div><ul><li>Saves up to 30% energy on the hob</li><li>Works on induction and gas hobs</li>' +
          '<li>Outer lid with gasket release system</li></ul>',
      ),
    );
    expect(out).toContain('Saves up to 30% energy');
    expect(out).not.toContain('Cheap line');
  });

  it('keeps a list of the product’s features that quotes a percentage in every item, none an offer', () => {
    const granola = [
      'Made with 100% wholegrain oats',
      'Contains 30% less sugar than our original recipe',
      'Source of fibre: 8% of your daily intake',
    ];
    const out = prune(columns(`<div>Details</div><div>Cheap line</div><ul>${granola.map((item) => `<li>${item}</li>`).join('')}</ul>`));
    for (const kept of granola) expect(out).toContain(kept);
    expect(out).not.toContain('Cheap line');
  });
});

/** Coolblue's shape: the title over two columns, the product's sections in the left one, the order box in the right one. */
const ORDER_BOX_PAGE =
  '<body><main><div class="product"><div class="header"><h1>Duetto 2 Zilver</h1><div><a href="#r">218 reviews</a></div></div>' +
  '<div class="grid"><div class="col7"><div class="specs"><h2>Specificaties</h2><dl>' +
  '<div><dt>Pomptype</dt><dd>Vibratiepomp</dd></div><div><dt>Gewicht</dt><dd>22 kg</dd></div></dl></div></div>' +
  '<div class="col5"><div class="order"><div class="sales-price"><span class="sales-price__former-price">€ 399,-</span> ' +
  '<strong>€ 349,-</strong></div><div>Voor 23.59 uur besteld, morgen gratis bezorgd</div>' +
  '<form action="/winkelwagen"><button type="submit">In mijn winkelwagen</button></form>' +
  '<ul><li>Gratis retourneren binnen 30 dagen</li><li>Onze keuze in de espressomachine-gids</li><li>Zakelijk bestellen? Vraag een offerte aan</li></ul>' +
  '</div></div></div></div></main></body>';

describe('an order box beside the product’s sections', () => {
  const pruned = () => {
    const document = parseDocument(ORDER_BOX_PAGE);
    pruneBuyBox(document.body, document.querySelector('h1')!);
    return textOf(document.body);
  };

  it('keeps a spec sheet written as a definition list before the control, as it keeps a table', () => {
    const out = pruned();
    for (const kept of ['Pomptype', 'Vibratiepomp', 'Gewicht', '22 kg']) expect(out).toContain(kept);
    expect(out).not.toContain('218 reviews');
  });

  it('keeps the price written "€ 349,-", and drops the former price on its line', () => {
    const out = pruned();
    expect(out).toContain('€ 349,-');
    expect(out).not.toContain('€ 399,-');
    expect(out).not.toContain('morgen gratis bezorgd');
  });

  it('takes a list in the control’s own box for the shop’s promises, however long its items', () => {
    const out = pruned();
    for (const gone of ['Gratis retourneren', 'espressomachine-gids', 'Zakelijk bestellen']) expect(out).not.toContain(gone);
  });
});

describe('a Shopware buy box', () => {
  it('is found by its "Add to shopping cart" button, and keeps the price marked as having a list price beside it', () => {
    const document = parseDocument(
      '<body><main><div class="cms-section"><h1>Standing desk converter</h1><div class="buy">' +
        '<div class="product-detail-price-container"><p class="product-detail-price with-list-price">€289.00*</p>' +
        '<span class="list-price-badge">%</span><span class="product-detail-list-price-wrapper"><span class="list-price-price">€329.00*</span>' +
        '<span class="list-price-percentage">(12.16% saved)</span></span></div>' +
        '<form action="/checkout/line-item/add"><button class="btn btn-buy">Add to shopping cart</button></form>' +
        '<div>Product number: HW-10482</div></div><h2>Description</h2><p>Beech.</p></div></main></body>',
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    const out = textOf(document.body);
    expect(out).toContain('€289.00*');
    for (const gone of ['€329.00*', '12.16% saved', 'HW-10482']) expect(out).not.toContain(gone);
  });
});

describe('a price line made of parts', () => {
  const prune = (priceLine: string, wrapperClass = 'module') => {
    const document = parseDocument(
      `<body><main><div class="product"><div class="${wrapperClass}"><h1>Mug set</h1>${priceLine}</div><form action="/cart"><button>Add to cart</button></form>` +
        '<h2>Details</h2><p>Stoneware.</p></div></main></body>',
    );
    pruneBuyBox(document.body, document.querySelector('h1')!);
    return document;
  };

  it('keeps the price opening the line and drops the notice beside it', () => {
    const out = textOf(prune('<div><span class="current">$24.99</span><span>When purchased online</span></div>').body);
    expect(out).toContain('$24.99');
    expect(out).not.toContain('When purchased online');
  });

  it('keeps the figure shown rather than a screen reader’s words for it, and shows it to them too', () => {
    const document = prune(
      '<div><span class="price"><span class="sr-text">Price £ 79</span><span aria-hidden="true"><span>£</span><span>79</span></span></span></div>',
      'price-module price-module--regular',
    );
    expect(textOf(document.body)).toContain('£79');
    expect(textOf(document.body)).not.toContain('Price £ 79');
    expect(document.querySelector('[aria-hidden]')).toBeNull();
  });

  it('takes no price from further on in a line ("Free delivery over £50")', () => {
    const out = textOf(prune('<div><span>Free delivery over </span><b>£50</b></div><div>£18.00</div>').body);
    expect(out).not.toContain('£50');
    expect(out).toContain('£18.00');
  });
});

describe('Amazon’s shape: the buy box column first, the title’s column after it, more than one h1', () => {
  const PAGE =
    '<html><head><title>Larkspur Water Bottle, 750 ml : Amazon.co.uk: Sports</title></head><body><div id="ppd">' +
    '<div id="rightCol"><div><span>£24.95</span></div><div>FREE delivery Tuesday</div>' +
    '<form action="/handle-buy-box"><input type="submit" name="submit.add-to-cart" value="Add to Basket"></form>' +
    '<table><tr><td>Dispatches from</td><td>Amazon</td></tr></table><div><a href="/list">Add to List</a></div></div>' +
    '<div id="centerCol"><h1> Larkspur Water Bottle, 750 ml </h1><div>Visit the Larkspur Store</div><div>1K+ bought in past month</div>' +
    '<div><h1>About this item</h1><ul><li>Keeps drinks cold for 24 hours</li><li>Two lids included in the box</li><li>Leak-proof when closed</li></ul></div>' +
    '</div></div></body></html>';

  it('takes for the product’s title the h1 the document’s title opens with', () => {
    const document = parseDocument(PAGE);
    const h1s = Array.from(document.querySelectorAll('h1'));
    expect(textOf(productTitle(h1s, document)!)).toBe('Larkspur Water Bottle, 750 ml');
    // None, or two, named so: no title, and no buy box.
    expect(productTitle([h1s[1]!, h1s[1]!.cloneNode(true) as Element], document)).toBeUndefined();
  });

  it('reads on past what the buy column holds after the control (a table) to the lines after the title', () => {
    const document = parseDocument(PAGE);
    pruneBuyBox(document.body, productTitle(Array.from(document.querySelectorAll('h1')), document)!);
    const out = textOf(document.body);
    for (const gone of ['FREE delivery', 'Add to List', 'Visit the Larkspur Store', '1K+ bought']) expect(out).not.toContain(gone);
    for (const kept of ['£24.95', 'Larkspur Water Bottle', 'About this item', 'Keeps drinks cold']) expect(out).toContain(kept);
  });
});
