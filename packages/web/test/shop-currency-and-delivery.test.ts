import { parseDocument, textOf } from '../src/content/dom';
import { boilerplateReason } from '../src/content/boilerplate-blocks';
import { CURRENCY, PRICE, PRICE_LINE } from '../src/content/boilerplate-cues';
import { removeFormBoxes } from '../src/content/form-boxes';

const block = (html: string): Element => parseDocument(`<body>${html}</body>`).body.firstElementChild!;
const SHOP = { shop: true, reviewed: true };

describe('one currency vocabulary', () => {
  it.each(['₹1,649', '₩39,000', '1 299 ₽', '₺449,90', '89,99 zł', '1 990 Kč', '249 kr', '49,99 lei', 'R$ 89,90', 'Rs. 1,649', '4,980円'])(
    'keeps a bare "%s" line on a shop page: a price is no counter',
    (price) => {
      expect(PRICE.test(price)).toBe(true);
      expect(PRICE_LINE.test(price) && CURRENCY.test(price)).toBe(true);
      expect(boilerplateReason(block(`<div>${price}</div>`), Infinity, SHOP)).toBeNull();
    },
  );

  it('takes no unit or word for a currency: "6 ft", "try 3", "2 TL", "kreativ 5"', () => {
    for (const text of ['6 ft tall', 'try 3 of them', 'rub 2 tbsp in', '2 TL Zucker', 'kreativ 5', '12 krone'])
      expect([text, PRICE.test(text)]).toEqual([text, false]);
    expect(CURRENCY.test('Kreuzberg')).toBe(false);
    // A bare number is still no words.
    expect(boilerplateReason(block('<div>1,649</div>'), Infinity, SHOP)).toBe('no words');
  });
});

describe('a delivery check beside a product', () => {
  const remove = (html: string) => {
    const document = parseDocument(
      `<body><main>${html}<p>${'The cooker is built from three bonded layers of steel. '.repeat(12)}</p></main></body>`,
    );
    removeFormBoxes(document.body, () => false);
    return textOf(document.body);
  };

  it('goes with the fee it shows: a postcode field makes the box the shop’s, not the product’s price box', () => {
    const out = remove(
      '<div><div>Delivery</div><div><input type="text" placeholder="Enter Delivery Pincode"><span>Check</span></div>' +
        '<div>Delivery by 27 Nov | Free ₹40</div></div>',
    );
    expect(out).not.toContain('Delivery by 27 Nov');
    // Named in code or by its label, in other languages.
    expect(remove('<div><label for="z">PLZ</label><input id="z" type="text"><p>Versand 4,90 €</p></div>')).not.toContain('4,90');
    expect(remove('<div><input name="shippingPostalCode" type="text"><p>Livraison 3,99 €</p></div>')).not.toContain('3,99');
  });

  it('keeps a product form that shows its price (a variable product’s chosen price)', () => {
    const out = remove(
      '<form action="/cart"><select name="size"><option>5 L</option></select><p>₹1,649</p><button>Add to cart</button></form>',
    );
    expect(out).toContain('₹1,649');
  });

  it.each([
    // WooCommerce's variation selects: a "delivery" or "cap" in a variant's name is the product's choice, not an address.
    '<form class="variations_form cart"><label for="pa_delivery-frequency">Delivery frequency</label>' +
      '<select id="pa_delivery-frequency" name="attribute_pa_delivery-frequency"><option>Weekly</option></select>' +
      '<p class="price">£18.00</p><button class="single_add_to_cart_button">Add to basket</button></form>',
    '<form class="variations_form cart"><select name="attribute_pa_cap-size"><option>M</option></select>' +
      '<p class="price">£18.00</p><button type="submit">Add to basket</button></form>',
    // A delivery choice beside the add-to-cart button, its name no variant's.
    '<form action="/cart"><label>Delivery day <select name="delivery_day"><option>Monday</option></select></label>' +
      '<p>£18.00</p><button>Add to cart</button></form>',
  ])('keeps a product form whose choice names a delivery, with its price: %s', (html) => {
    expect(remove(html)).toContain('£18.00');
  });
});
