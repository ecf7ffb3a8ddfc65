import { parseDocument, textOf } from '../src/content/dom';
import { threadPosts } from '../src/content/discussion';
import { removeChrome } from '../src/content/clean';
import { isSignatureName } from '../src/content/boilerplate-cues';

const body = (html: string) => parseDocument(`<body>${html}</body>`).body;

const POSTS = [
  'Since the last system update my laptop loses its wireless mouse every time it wakes from sleep, and only a restart brings it back.',
  'Wireless mice often pair with several devices; if another channel is paired to a phone nearby it may grab the connection on wake.',
  'Only one channel is in use here, and the reset option I used to have in the menu is gone since the update. Thanks though.',
  'Remove the mouse from the list of devices, restart, and pair it again: pairings carried over from older versions cause exactly this.',
];

describe('signature boxes: one list for the chrome rules and the thread finder', () => {
  it('names a signature by a whole token, with or without its "-" and "_"', () => {
    for (const name of ['signature', 'post_signature', 'post-signature', 'signature_container', 'SignatureContainer', 'sign']) {
      expect(isSignatureName(name)).toBe(true);
    }
    // Sphinx's function signature ("dt.sig") is a docs page's content; a bar's "signature-cocktails" a menu.
    for (const name of ['sig', 'signature-cocktails', 'signup', 'design']) expect(isSignatureName(name)).toBe(false);
  });

  it('does not take a signature styled as a post ("post_signature postmsg") for one of the thread’s posts', () => {
    const post = (message: string, i: number) =>
      `<div class="blockpost"><div class="postleft"><dl><dt>user${i}</dt><dd>Posts: 14${i}</dd></dl></div>` +
      `<div class="postright"><div class="postmsg"><p>${message}</p></div><div class="post_signature postmsg"><hr><p>Laptop: ThinkPad T14 running sway on Arch Linux</p></div></div></div>`;
    const posts = threadPosts(body(`<main><h1>Mouse lost after sleep</h1>${POSTS.map(post).join('')}</main>`));
    expect(posts.map((found) => textOf(found))).toEqual(POSTS);
  });

  it('removes a signature box named "signature_container" from the page', () => {
    const page = parseDocument(
      `<body><main><h1>Mouse lost after sleep</h1><div class="post"><p>${POSTS[0]}</p>` +
        '<div class="signature_container">Laptop: ThinkPad T14 running sway</div></div></main></body>',
    );
    removeChrome(page);
    expect(textOf(page.body)).toContain('wireless mouse');
    expect(textOf(page.body)).not.toContain('ThinkPad');
  });
});
