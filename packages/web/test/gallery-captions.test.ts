import { parseDocument, textOf } from '../src/content/dom';
import { pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { createContentExtractor } from '../src/content/page-content';
import { demoteProseHeadings } from '../src/content/heading-buttons';

const text = (html: string) => createContentExtractor().extract(html, 'https://example.com/g', { text: true }).text ?? '';

const NOTES = [
  'A night market in a flooded river town, built for a personal project about places that adapted to rising water instead of leaving.',
  'Blocked out in Blender with simple kitbash pieces, lit with a handful of emissive objects and a low moon, then painted over in Photoshop.',
];
const CAPTIONS = [
  'Final paintover. The market stalls sit on moored barges, so the street rises and falls with the river.',
  'Clay render before any texturing. I kept the geometry rough and let the paintover do the detail.',
  'Lighting pass with only the lanterns switched on, each one a slightly different warm tint.',
];

const picture = (caption: string, n: number) =>
  `<div class="asset-image"><picture><img src="/p/${n}.jpg" alt="The Lantern Market"></picture><div class="asset-caption">${caption}</div></div>`;

/** A portfolio: the pictures in the main column, the title and the artist's notes in a sidebar beside them. */
const PORTFOLIO =
  '<html><head><title>The Lantern Market</title></head><body><header><nav><a href="/">Home</a><a href="/jobs">Jobs</a></nav></header>' +
  `<main><div class="project-assets">${CAPTIONS.map(picture).join('')}</div>` +
  '<aside class="project-sidebar"><div class="project-author"><a href="/mira">Mira Tanaka</a><button>Follow</button></div>' +
  `<h1 class="project-name">The Lantern Market</h1><div class="project-description">${NOTES.map((p) => `<p>${p}</p>`).join('')}</div>` +
  '<ul class="project-stats"><li>1,482</li><li>9,730</li></ul></aside></main>' +
  '<aside class="more-by"><h3>More by Mira</h3><a href="/a/1">Harbour study</a></aside></body></html>';

const LONG_PROSE = Array.from({ length: 8 }, () => `<p>${NOTES.join(' ')}</p>`).join('');

describe('a gallery’s captions and its title beside the pictures', () => {
  it('keeps a sidebar that holds the title, with the notes, and the captions of three photos', () => {
    const out = text(PORTFOLIO);
    expect(out).toContain('The Lantern Market');
    for (const note of NOTES) expect(out).toContain(note);
    for (const caption of CAPTIONS) expect(out).toContain(caption);
    expect(out).not.toContain('Harbour study');
  });

  it('drops the captions of an article whose photos are a sliver of its text', () => {
    const article =
      `<html><body><main><article><h1>The Lantern Market</h1>${LONG_PROSE}` +
      `${CAPTIONS.map((c, n) => `<figure><img src="/p/${n}.jpg" alt=""><figcaption>${c}</figcaption></figure>`).join('')}</article></main></body></html>`;
    const out = text(article);
    expect(out).toContain(NOTES[1]);
    for (const caption of CAPTIONS) expect(out).not.toContain(caption);
  });

  it('trims a credit in an element of its own at a caption’s end, not a caption that is only a credit', () => {
    const root = parseDocument(
      `<body><div><p>${NOTES[0]}</p><figure><img src="/a.jpg" alt=""><figcaption>Steam rises from a dumpling stall <span>Photo by Lin Wei</span></figcaption></figure>` +
        '<figure><img src="/b.jpg" alt=""><figcaption><span>Traders pack up after midnight</span></figcaption></figure></div></body>',
    ).body.firstElementChild!;
    pruneBoilerplate(root);
    const captions = Array.from(root.querySelectorAll('figcaption')).map((c) => textOf(c));
    expect(captions).toEqual(['Steam rises from a dumpling stall', 'Traders pack up after midnight']);
  });

  it('keeps a grid of captioned photos in a section apart from the prose, whatever the body’s theme classes say', () => {
    const photos = [...CAPTIONS, 'A single set of footprints across fresh snow, under the mountain that gives the beach its name.'];
    const page =
      '<html><body class="gallery-design-grid gallery-caption-style-simple"><header><nav><a href="/">Home</a></nav></header>' +
      `<main><article><section><div class="content-wrapper"><div class="sqs-block"><h1>Salt and Stone</h1>${NOTES.map((p) => `<p>${p}</p>`).join('')}<p>${NOTES[0]} ${NOTES[1]}</p></div></div></section>` +
      `<section class="gallery-section"><div class="content-wrapper"><div class="gallery-grid">${photos
        .map(
          (c, n) =>
            `<figure class="gallery-grid-item"><img src="/i/${n}.jpg" alt=""><figcaption class="gallery-caption"><p>${c}</p></figcaption></figure>`,
        )
        .join('')}</div></div></section></article></main></body></html>`;
    const out = text(page);
    for (const note of NOTES) expect(out).toContain(note);
    for (const caption of photos) expect(out).toContain(caption);
  });
});

describe('a photo page whose description is written in a heading', () => {
  const DESCRIPTION = [
    'I waited in the hide for most of an hour before the heron walked into the channel and stood there, still as a post.',
    'The mist lifted while the sun came up behind the reeds, so the background runs from grey to gold across the frame.',
  ];
  /** Flickr's photo page: the title an h1, the whole description an h2 of paragraphs, the last block of the page's column. */
  const PHOTO =
    '<html><body><nav><a href="/explore">Explore</a></nav><main><div class="photo-well"><img src="/p/heron.jpg" alt="Heron"></div>' +
    '<div class="attribution"><a href="/people/ann">Ann Reed</a><button>Follow</button></div>' +
    '<h1 class="photo-title">Grey heron at first light</h1>' +
    `<h2 class="photo-desc">${DESCRIPTION.map((p) => `<p>${p}</p>`).join('')}</h2></main></body></html>`;

  it('keeps every paragraph of the description, as paragraphs', () => {
    const result = createContentExtractor().extract(PHOTO, 'https://example.com/photos/1', { text: true, markdown: true });
    for (const paragraph of DESCRIPTION) expect(result.text).toContain(paragraph);
    expect(result.markdown).toContain(`\n\n${DESCRIPTION[1]}`);
    expect(result.markdown).not.toMatch(/^#+ I waited/m);
  });

  it('leaves a heading that wraps its one short line in a paragraph a heading', () => {
    const document = parseDocument('<body><h1><p>Grey heron at first light</p></h1><h2><p>One</p><p>Two</p></h2></body>');
    demoteProseHeadings(document.body);
    expect(textOf(document.querySelector('h1')!)).toBe('Grey heron at first light');
    expect(document.querySelector('h2')).toBeNull();
    expect(document.querySelectorAll('div > p')).toHaveLength(2);
  });
});
