/**
 * Small boxes built around a form: newsletter sign-ups, buy boxes, comment and search forms.
 * Found by their controls (an email field, a select, a text area) before the controls are
 * stripped, whatever the box's class names; the box is the largest wrapper of the form that
 * still holds little text, and less than half the page's. A form around the whole page (ASP.NET
 * pages wrap everything in one) is never a box.
 */
import { textOf } from './dom';
import { DELIVERY_FIELD, PRICE } from './boilerplate-cues';
import { BUY_CONTROL_CANDIDATES, isBuyControl } from './structured-data';

const CONTROLS = 'form, input:not([type="hidden"]), select, textarea';
/** More text than this is more than a pitch and a privacy line: content may be in it. */
const MAX_BOX_TEXT = 300;
const NEVER_IN_BOX = 'pre, table, h1, article, main';
/** A box never grows past one of these: a list item or a table cell is content's own place. */
const BOX_LIMIT = new Set(['LI', 'TR', 'TD', 'TH', 'DD']);

/** A control a reader fills in: not a task list's disabled checkbox, not a lone toggle. */
function isInput(control: Element): boolean {
  if (control.hasAttribute('disabled') || control.hasAttribute('readonly')) return false;
  const type = (control.getAttribute('type') ?? '').toLowerCase();
  return !((type === 'checkbox' || type === 'radio') && !control.closest('form'));
}

/**
 * A form with nothing to fill in (only hidden fields, and buttons) is a wrapper or a button, not
 * a box: old Reddit and ASP.NET pages put posts and whole pages in such forms, and threads put a
 * vote button in one beside every post.
 */
function isEmptyForm(form: Element): boolean {
  return (
    form.querySelector('input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="image"]), select, textarea') ===
    null
  );
}

function isBox(element: Element, pageText: number, lengths: Map<Element, number>): boolean {
  let text = lengths.get(element);
  if (text === undefined) {
    text = textOf(element).length;
    lengths.set(element, text);
  }
  return text < MAX_BOX_TEXT && text < pageText / 2 && element.querySelector(NEVER_IN_BOX) === null;
}

/** Attributes that say what a field is for, and the ARIA reference to its label. */
const FIELD_NAMING = ['placeholder', 'aria-label', 'name', 'id', 'title', 'autocomplete'];

/** A shop's variant attribute (WooCommerce's `attribute_pa_delivery-frequency`): a choice of the product's, whatever its words. */
const VARIANT_ATTRIBUTE = /^attribute_/i;

/** Each label's element by the id its `for` names, read once for the page (not a query of every label per control). */
function labelsByTarget(body: Element): Map<string, Element> {
  const labels = new Map<string, Element>();
  for (const label of Array.from(body.ownerDocument.querySelectorAll('label[for]'))) {
    const target = label.getAttribute('for');
    if (target && !labels.has(target)) labels.set(target, label);
  }
  return labels;
}

/**
 * Whether `control` asks for a delivery address's postcode ("Enter Delivery Pincode", "PLZ"):
 * the box around it is the shop's delivery check, and the price it shows is a delivery fee, not
 * the product's price. Read from the field's own attributes and its label. A variant's select
 * ("attribute_pa_delivery-frequency") is the product's choice, not an address.
 */
function isDeliveryField(control: Element, labels: Map<string, Element>): boolean {
  if (VARIANT_ATTRIBUTE.test(control.getAttribute('name') ?? '')) return false;
  const names = FIELD_NAMING.map((name) => control.getAttribute(name) ?? '');
  const id = control.getAttribute('id');
  const label = control.closest('label') ?? (id ? labels.get(id) : undefined);
  if (label) names.push(textOf(label));
  // Code's names are split into words: "deliveryPincode", "shipping_zip", "postal-code".
  return names.some((name) => DELIVERY_FIELD.test(name.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/[_-]+/g, ' ')));
}

/**
 * Whether `box` is a delivery check, its price a fee: its field asks for a postcode, and it holds
 * no buy control and no other choice (a product form with a "Delivery frequency" select beside
 * its size select and its add-to-cart button shows the product's price).
 */
function isDeliveryCheck(box: Element, control: Element, labels: Map<string, Element>): boolean {
  if (!isDeliveryField(control, labels)) return false;
  if (Array.from(box.querySelectorAll('select')).some((select) => select !== control)) return false;
  return !Array.from(box.querySelectorAll(BUY_CONTROL_CANDIDATES)).some(isBuyControl);
}

/** Removes form boxes from `body`, never an element `isProtected` (the article's own containers). */
export function removeFormBoxes(body: Element, isProtected: (element: Element) => boolean): void {
  const pageText = textOf(body).length;
  // Each element's text is measured once, however many controls climb through it.
  const lengths = new Map<Element, number>();
  let labels: Map<string, Element> | undefined;
  for (const control of Array.from(body.querySelectorAll(CONTROLS))) {
    if (!control.isConnected || control.closest('pre, code')) continue;
    if ((control.tagName === 'INPUT' && !isInput(control)) || (control.tagName === 'FORM' && isEmptyForm(control))) continue;
    let box: Element | null = null;
    for (let candidate: Element | null = control; candidate && candidate !== body; candidate = candidate.parentElement) {
      if (isProtected(candidate) || !isBox(candidate, pageText, lengths)) break;
      box = candidate;
      if (BOX_LIMIT.has(candidate.tagName)) break;
    }
    // A box showing a price (a variable product's chosen price) is the product's, not a pitch;
    // a delivery check's fee is no product's price.
    if (box && (!PRICE.test(textOf(box)) || isDeliveryCheck(box, control, (labels ??= labelsByTarget(body))))) box.remove();
  }
}
