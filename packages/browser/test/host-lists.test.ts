import { HostList, hostList } from '../src/host-lists';

describe('HostList', () => {
  const list = HostList.parse('# comment\nexample.com\nads.example.org  # trailing comment\nfacebook.com/tr\n\n');

  it('matches a host, its subdomains and path-prefixed entries; nothing else', () => {
    expect(list.size).toBe(3);
    expect(list.matches('https://example.com/a.js')).toBe(true);
    expect(list.matches('https://cdn.example.com/a.js')).toBe(true);
    expect(list.matches('https://notexample.com/a.js')).toBe(false);
    expect(list.matches('https://example.org/')).toBe(false);
    expect(list.matches('https://x.ads.example.org/')).toBe(true);
    expect(list.matches('https://www.facebook.com/tr?id=1')).toBe(true);
    expect(list.matches('https://www.facebook.com/profile')).toBe(false);
    expect(list.matches('not a url')).toBe(false);
  });

  it('the bundled chat and tracker lists load and hold the vendors they name', async () => {
    const [chats, trackers] = await Promise.all([hostList('chats'), hostList('trackers')]);
    for (const url of [
      'https://widget.intercom.io/widget/x',
      'https://js.driftt.com/include/x.js',
      'https://static.zdassets.com/ekr/snippet.js',
      'https://client.crisp.chat/l.js',
      'https://js.usemessages.com/conversations-embed.js',
      'https://embed.tawk.to/x/default',
    ]) {
      expect(chats.matches(url)).toBe(true);
    }
    for (const url of [
      'https://www.google-analytics.com/analytics.js',
      'https://www.googletagmanager.com/gtm.js',
      'https://static.hotjar.com/c/hotjar.js',
      'https://connect.facebook.net/en_US/fbevents.js',
    ]) {
      expect(trackers.matches(url)).toBe(true);
    }
    expect(chats.matches('https://example.com/chat.js')).toBe(false);
    expect(trackers.matches('https://example.com/analytics.js')).toBe(false);
  });
});
