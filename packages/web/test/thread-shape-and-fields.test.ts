import { parseDocument, textOf } from '../src/content/dom';
import { threadPosts } from '../src/content/discussion';
import { restoreMissingPosts, restoreQuotedBlocks, standfirstBlock } from '../src/content/coverage';
import { boilerplateReason, pruneBoilerplate } from '../src/content/boilerplate-blocks';
import { separateFields } from '../src/content/fields';
import { createContentExtractor } from '../src/content/page-content';

const text = (html: string) => createContentExtractor().extract(html, 'https://example.com/t', { text: true }).text ?? '';
const body = (html: string) => parseDocument(`<body>${html}</body>`).body;

const QUESTION =
  'Since the last system update my laptop loses its wireless mouse every time it wakes from sleep, and only a restart brings it back.';
const ANSWERS = [
  'Wireless mice often pair with several devices; if another channel is paired to a phone nearby it may grab the connection on wake.',
  'Only one channel is in use here, and the reset option I used to have in the menu is gone since the update. Thanks though.',
  'Remove the mouse from the list of devices, restart, and pair it again: pairings carried over from older versions cause exactly this.',
  'That did it. Removed, restarted, re-paired, and it has survived five sleeps today. Marking this as solved for the next person.',
];

/** A support community's thread: the question's body and the answers' share most class names, each in a box of its own. */
const SUPPORT_THREAD =
  `<main><section class="question"><h1>Mouse lost after sleep</h1><div class="question__body post-body"><p>${QUESTION}</p></div></section>` +
  `<section class="answers"><h2>4 replies</h2>` +
  ANSWERS.map(
    (answer, i) =>
      `<article class="answer"><div class="author-card"><a href="/u/${i}">user${i}</a></div>` +
      `<div class="answer__body post-body"><p>${answer}</p></div><div class="answer__actions"><button>Helpful (3)</button></div></article>`,
  ).join('') +
  `</section></main>`;

/**
 * A Q&A site whose answers sit beside each other, the first (long) one in the question's box, each
 * answer's text deep in wrappers: Readability takes the question's box alone.
 */
const answer = (paragraphs: readonly string[]) =>
  `<div class="q-box answer-item"><div class="q-box author"><a href="/u">Someone</a> · <span>Baker</span></div>` +
  `<div class="q-box answer_content"><div class="q-box"><div class="q-box"><div class="q-box"><div class="q-text">` +
  paragraphs.map((p) => `<p class="q-text"><span>${p}</span></p>`).join('') +
  `</div></div></div></div></div><div class="q-box"><span>48K views</span></div></div>`;
const SIDE_BY_SIDE_ANSWERS =
  `<div id="root"><div class="q-box"><div class="q-flex"><div class="q-box"><div class="q-box"><h1>Why do bakers weigh flour?</h1></div>` +
  `<div class="q-box"><button>Answer</button></div>${answer([ANSWERS[0]!, ANSWERS[1]!, QUESTION, 'Weigh it: a cup of flour can be anything from 115 to 160 grams, depending on how you fill it.', 'Sifting first gives you less still; scooping packs it down.'])}</div>` +
  `${answer([ANSWERS[2]!])}${answer([ANSWERS[3]!])}</div></div></div>`;

const ARTICLE_PROSE =
  'The council voted on Wednesday evening to approve a budget that closes two branch libraries and raises the cost of parking in the town centre. ' +
  'Councillors said the authority had no choice after a fall in government funding and a sharp rise in the cost of adult social care this year. ';

describe('a thread told by the shape of its posts', () => {
  it('finds every answer of a support thread, by the class names they share', () => {
    // The question's body shares one class name of three with them: it is the page's article anyway.
    const posts = threadPosts(body(SUPPORT_THREAD));
    expect(posts.map((post) => textOf(post))).toEqual(ANSWERS);
  });

  it('finds a FluxBB thread, whose signatures share the posts’ class, and drops the signatures', () => {
    const post = (message: string, i: number) =>
      `<div class="blockpost"><h2>#${i + 1}</h2><div class="postleft"><dl><dt>user${i}</dt><dd>Posts: 14${i}</dd></dl></div>` +
      `<div class="postright"><div class="postmsg"><p>${message}</p></div><div class="postsignature postmsg"><hr><p>Laptop: ThinkPad T14, sway</p></div></div></div>`;
    const page = `<main><h1>Mouse lost after sleep</h1>${[QUESTION, ...ANSWERS.slice(0, 3)].map(post).join('')}</main>`;
    expect(threadPosts(body(page)).map((found) => textOf(found))).toEqual([QUESTION, ...ANSWERS.slice(0, 3)]);
    const out = text(page);
    for (const answer of ANSWERS.slice(0, 3)) expect(out).toContain(answer);
    expect(out).not.toContain('ThinkPad');
  });

  it('keeps every answer after a "4 replies" heading, and drops the heading', () => {
    const out = text(SUPPORT_THREAD);
    for (const answer of ANSWERS) expect(out).toContain(answer);
    expect(out).not.toContain('4 replies');
  });

  it('brings back the answers Readability left beside the one it chose', () => {
    const out = text(SIDE_BY_SIDE_ANSWERS);
    for (const answer of ANSWERS) expect(out).toContain(answer);
  });

  it('is no thread: an article whose body has no class name, beside comments alike', () => {
    const page = body(
      `<article><h1>Budget approved</h1><div><p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p></div></article>` +
        ANSWERS.slice(0, 3)
          .map((answer) => `<div class="comment"><div class="comment-body"><p>${answer}</p></div></div>`)
          .join(''),
    );
    expect(threadPosts(page)).toEqual([]);
  });

  it('is no thread: an article cut into sibling blocks of one template is one post', () => {
    const page = body(
      `<article><h1>Budget</h1><div class="story">${[1, 2, 3, 4].map(() => `<div class="story-text"><p>${ARTICLE_PROSE}</p></div>`).join('')}</div></article>`,
    );
    expect(threadPosts(page)).toEqual([]);
  });

  it('is no thread: an article and its comments made by one post template, the article many times longer', () => {
    const post = (i: number, html: string) =>
      `<div class="dw-p"><div class="dw-p-hd"><a href="/u/${i}">user${i}</a></div><div class="dw-p-bd"><div class="dw-p-bd-blk">${html}</div></div></div>`;
    const article = post(0, `<p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p>`);
    const comments = ANSWERS.map((answer, i) => post(i + 1, `<p>${answer}</p>`)).join('');
    expect(threadPosts(body(`<main><h1>Budget</h1>${article}<div class="dw-replies">${comments}</div></main>`))).toEqual([]);
    // A question as long as an answer opens a thread, in the same markup.
    const question = post(0, `<p>${QUESTION}</p>`);
    expect(threadPosts(body(`<main><h1>Mouse</h1>${question}<div class="dw-replies">${comments}</div></main>`))).toHaveLength(5);
  });

  it('reads a thread written in spans holding paragraphs, and no page of text spans as one', () => {
    const span = (extra: string, html: string) => `<span class="RichText ztext${extra}">${html}</span>`;
    const item = (i: number, html: string) =>
      `<div class="AnswerItem"><div class="AuthorInfo"><a href="/u/${i}">user${i}</a></div><div class="RichContent">${html}</div><button>Like</button></div>`;
    const page =
      `<main><div class="QuestionHeader"><h1>Mouse lost after sleep</h1><div class="QuestionRichText">${span('', QUESTION)}</div><button>Follow</button></div>` +
      item(1, span(' Copyright', `<p>${ANSWERS[0]}</p><p>${ANSWERS[2]}</p>`)) +
      item(2, span(' Copyright', `<p>${ANSWERS[1]}</p>`)) +
      '</main>';
    expect(threadPosts(body(page)).map((post) => textOf(post))).toEqual([QUESTION, `${ANSWERS[0]}${ANSWERS[2]}`, ANSWERS[1]]);
    const spans = [
      'Condition: Used, tested with a roll of film',
      'Postage: free tracked delivery in two days',
      'Returns: accepted within 30 days',
    ]
      .map(
        (line, i) =>
          `<div class="row"><div class="label"><span class="ux-textspans">${i}</span></div><span class="ux-textspans">${line}</span></div>`,
      )
      .join('');
    expect(threadPosts(body(`<main><h1>Camera</h1>${spans}</main>`))).toEqual([]);
  });

  it('brings back only posts after the first one the content holds, each once', () => {
    const posts = [
      'A sidebar blurb made by the posts template, about the community and its rules for everyone.',
      QUESTION,
      ANSWERS[0]!,
      ANSWERS[1]!,
    ].map((words) => body(`<div class="post-body"><p>${words}</p></div>`).firstElementChild!);
    // The question's start was cut (a quote's attribution); its end says it is there.
    const root = body(`<div><p>${QUESTION.slice(20)}</p><p>${ANSWERS[0]}</p></div>`).firstElementChild!;
    restoreMissingPosts(root, posts);
    const out = textOf(root);
    expect(out).not.toContain('sidebar blurb');
    expect(out.split(ANSWERS[0]!).length).toBe(2);
    expect(out).toContain(ANSWERS[1]);
  });
});

describe('a thread’s status labels', () => {
  it('drops an answer’s badge, and a closed-thread notice on a thread page', () => {
    expect(boilerplateReason(body('<div>Best reply</div>').firstElementChild!)).toBe('thread status');
    expect(boilerplateReason(body('<div>Accepted answer</div>').firstElementChild!)).toBe('thread status');
    const notice = () =>
      body('<p>This thread has been closed by the system or the community team. You may vote for helpful posts.</p>').firstElementChild!;
    expect(boilerplateReason(notice(), Infinity, { thread: true })).toBe('thread status');
    expect(boilerplateReason(notice())).toBeNull();
  });

  it('keeps a sentence that says a problem was solved, or a question closed', () => {
    expect(boilerplateReason(body('<p>Solved it by replacing the capacitor on the main board.</p>').firstElementChild!)).toBeNull();
    expect(
      boilerplateReason(
        body('<p>This question was closed by the 1998 ruling, which settled who owns the river bed.</p>').firstElementChild!,
      ),
    ).toBeNull();
  });
});

describe('a numbered step’s number written into its item', () => {
  it('goes from an ordered list’s item, written as a number or as “Step 2”; an ingredient’s amount stays', () => {
    const root = body(
      '<div><ol><li><span class="n">1.</span><span class="t">Chop the onions finely.</span></li></ol>' +
        '<ul><li><span class="amount">3</span> eggs</li></ul>' +
        '<ol><li><span class="label">Step 2</span><p>Fry them gently.</p></li></ol></div>',
    ).firstElementChild!;
    pruneBoilerplate(root);
    expect(Array.from(root.querySelectorAll('li')).map((item) => textOf(item))).toEqual([
      'Chop the onions finely.',
      '3 eggs',
      'Fry them gently.',
    ]);
  });
});

describe('fields a stylesheet sets apart', () => {
  const separated = (html: string) => {
    const root = body(html);
    separateFields(root);
    return root.textContent;
  };

  it('puts a space between side-by-side fields with class names of their own', () => {
    expect(separated('<li><span class="name">小松菜</span><span class="amount">1株</span></li>')).toBe('小松菜 1株');
    expect(separated('<li><span class="name">卵</span><span class="amount">1個</span></li>')).toBe('卵 1個');
    expect(separated('<div><span class="label">Weight</span><span class="value">2.4 kg</span></div>')).toBe('Weight 2.4 kg');
  });

  it('leaves a price’s parts, a drop cap, code, and fields already apart as they are', () => {
    expect(separated('<span class="whole">12.</span><span class="fraction">99</span>')).toBe('12.99');
    expect(separated('<p><span class="dropcap">T</span><span class="rest">he river rose</span></p>')).toBe('The river rose');
    expect(separated('<pre><code><span class="kw">const</span><span class="id">xs</span></code></pre>')).toBe('constxs');
    expect(separated('<span class="a">one</span> <span class="b">two</span>')).toBe('one two');
  });
});

describe('class names that are names of every object’s own properties', () => {
  it('keeps sections named "constructor", "toString" or "__proto__" (a Javadoc page’s constructor details)', () => {
    const prose = 'Creates a budget that earns ratio tokens per success and holds at most maxTokens. The budget starts full.';
    const out = text(
      `<main><h1>Class RetryBudget</h1><section class="constructor-summary" id="constructor-summary"><h2>Constructor Summary</h2><p>${prose}</p></section>` +
        `<section class="toString"><p>Returns a string that names the budget and the tokens it holds right now.</p></section>` +
        `<section class="__proto__"><p>The prototype section of the page, which a reader came here to read.</p></section></main>`,
    );
    expect(out).toContain('Constructor Summary');
    expect(out).toContain('The budget starts full.');
    expect(out).toContain('Returns a string that names the budget');
    expect(out).toContain('which a reader came here to read');
  });
});

describe('a standfirst told by the page’s meta description', () => {
  const DEK = 'Borrowing is up, returns are on time, and the fines turned out to cost more to collect than they brought in.';
  const page = (beforeTitle: string, afterTitle: string) =>
    parseDocument(
      `<html><head><meta name="description" content="${DEK}"></head><body>${beforeTitle}<header><h1>Libraries drop late fees</h1>${afterTitle}</header>` +
        `<div class="story"><p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p></div></body></html>`,
    );

  it('is the block after the h1 that says the description whole, and the content keeps it once', () => {
    const document = page('', `<p class="dek">${DEK}</p>`);
    expect(textOf(standfirstBlock(document, DEK))).toBe(DEK);
    const out = text(document.documentElement.outerHTML);
    expect(out.split(DEK).length).toBe(2);
  });

  it('is no block before the h1, nor one that only begins with the description', () => {
    expect(standfirstBlock(page(`<div class="promo">${DEK}</div>`, ''), DEK)).toBeNull();
    expect(standfirstBlock(page('', `<p>${DEK} Staff say they saw former patrons return.</p>`), DEK)).toBeNull();
  });

  it('goes back once when two hints name one paragraph', () => {
    const root = body(`<div><p>${ARTICLE_PROSE}</p></div>`).firstElementChild!;
    const copy = () => body(`<p>${DEK}</p>`).firstElementChild!;
    restoreQuotedBlocks(root, [copy(), copy()]);
    expect(textOf(root).split(DEK).length).toBe(2);
  });
});

describe('a shop page’s table rows about the sale', () => {
  const table = () =>
    body(
      '<div><table><tr><th>Dispatches from</th><td>Amazon</td></tr><tr><th>Sold by</th><td>Larkspur Outdoor Ltd</td></tr>' +
        '<tr><td>Returns</td><td>Returnable within 30 days of receipt</td></tr><tr><td>Capacity</td><td>750 ml</td></tr>' +
        '<tr><td>Material</td><td>Stainless steel, ships from the factory in Sheffield</td></tr></table></div>',
    ).firstElementChild!;

  it('go on a shop page; the product’s own rows stay', () => {
    const root = table();
    pruneBoilerplate(root, { shop: true });
    expect(Array.from(root.querySelectorAll('tr')).map((row) => textOf(row.firstElementChild))).toEqual(['Capacity', 'Material']);
  });

  it('stay anywhere else (a fund’s “Returns” row is its figures)', () => {
    const root = table();
    pruneBoilerplate(root);
    expect(root.querySelectorAll('tr')).toHaveLength(5);
  });
});

describe('a forum’s member cards, signatures and controls', () => {
  const PROSE_POST = `<p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p>`;

  it('drops a member card by its counts, laid out in a table of its own, with the name and rank around them', () => {
    const root = body(
      `<div>${PROSE_POST}<table><tr><td><div class="card"><div><a href="/u/1">绿手指小白</a></div>` +
        '<div><table><tr><th><p>3</p>主题</th><th><p>120</p>帖子</th><td><p>400</p>积分</td></tr></table></div><p><em>中级会员</em></p></div></td>' +
        '<td><p>家里养了两年的绿萝，最近一个月下面的老叶子一片接一片发黄。</p></td></tr></table></div>',
    ).firstElementChild!;
    pruneBoilerplate(root);
    const out = textOf(root);
    expect(out).not.toContain('绿手指小白');
    expect(out).not.toContain('积分');
    expect(out).toContain('家里养了两年的绿萝');
  });

  it('stops at a post, however short, beside the card', () => {
    const root = body(
      `<div>${PROSE_POST}<div class="post"><div class="card">oldgreaser · Posts: 2,184 · Threads: 12 · Reputation: 41</div><p>Thanks, that fixed it!</p></div></div>`,
    ).firstElementChild!;
    pruneBoilerplate(root);
    expect(textOf(root)).toContain('Thanks, that fixed it!');
    expect(textOf(root)).not.toContain('Reputation');
  });

  it('keeps a sentence that gives counts with words around them', () => {
    expect(
      boilerplateReason(body('<p>The forum has 120 threads, 4,000 posts and 300 points of interest on its map.</p>').firstElementChild!),
    ).toBeNull();
  });

  it('drops a post’s controls left as bare words', () => {
    expect(boilerplateReason(body('<div>举报</div>').firstElementChild!)).toBe('post control');
    expect(boilerplateReason(body('<div>举报信</div>').firstElementChild!)).toBeNull();
  });

  it('drops a signature said under two posts of a thread, and only in a thread; a data table’s repeated cells stay', () => {
    const page = () =>
      body(
        `<div>${PROSE_POST}<table><tr><td><p>${ANSWERS[0]} ${ARTICLE_PROSE}</p></td></tr><tr><td><div>Sent from the shed</div></td></tr></table>` +
          `<table><tr><td><p>${ANSWERS[1]} ${ARTICLE_PROSE}</p></td></tr><tr><td><div>Sent from the shed</div></td></tr></table>` +
          '<table><tr><td><span>Yes</span></td><td>Steel</td></tr><tr><td><span>Yes</span></td><td>Oak</td></tr></table></div>',
      ).firstElementChild!;
    const thread = page();
    pruneBoilerplate(thread, { thread: true });
    expect(textOf(thread)).not.toContain('Sent from the shed');
    expect(textOf(thread).match(/Yes/g)).toHaveLength(2);
    const article = page();
    pruneBoilerplate(article);
    expect(textOf(article).match(/Sent from the shed/g)).toHaveLength(2);
  });

  it('drops a signature set off by a rule, even as a paragraph in a list’s item; a one-paragraph reply said twice stays', () => {
    const post = (answer: string, signature: string) =>
      `<li><div><p>${answer} ${ARTICLE_PROSE}</p></div><div><hr><p>${signature}</p></div></li>`;
    const root = body(
      `<div>${PROSE_POST}<ol>${post(ANSWERS[0]!, 'ThinkPad T14 | Ubuntu 24.04')}${post(ANSWERS[1]!, 'ThinkPad T14 | Ubuntu 24.04')}</ol>` +
        '<div><p>Same problem here.</p></div><div><p>Same problem here.</p></div></div>',
    ).firstElementChild!;
    pruneBoilerplate(root, { thread: true });
    expect(textOf(root)).not.toContain('ThinkPad');
    expect(textOf(root)).toContain(ANSWERS[1]);
    expect(textOf(root).match(/Same problem here/g)).toHaveLength(2);
  });

  it('reads a date written year-month-day without leading zeros, beside an unlabelled icon', () => {
    const root = body(
      `<div>${PROSE_POST}<div><img src="/online.gif"><em>发表于 2024-3-5 11:02</em></div>` +
        `<div><img src="/moth.jpg" alt="A moth on a lit window"><em>Dunkeld, 2024-3-5</em></div></div>`,
    ).firstElementChild!;
    pruneBoilerplate(root);
    expect(textOf(root)).not.toContain('发表于');
    expect(textOf(root)).toContain('Dunkeld');
  });
});

describe('copies put back beside Readability’s content', () => {
  it('carry no class names, ids or styles, as Readability’s own content does not', () => {
    const out = createContentExtractor().extract(SIDE_BY_SIDE_ANSWERS, 'https://example.com/t', { html: true }).contentHtml ?? '';
    expect(out).toContain(ANSWERS[3]);
    // Readability's own wrapper keeps its "readability-page-1"; what was put back after it has no names.
    expect(out.slice(out.indexOf(ANSWERS[2]!) - 100)).not.toMatch(/class=|id=|style=/);
  });
});

describe('boilerplate in Chinese and Japanese wording', () => {
  const reason = (html: string) => boilerplateReason(body(html).firstElementChild!);

  it('reads a portal’s disclaimer, an app pitch and a free-trial pitch', () => {
    expect(reason('<p>特别声明：以上文章内容仅代表作者本人观点，不代表新浪网观点或立场。</p>')).toBe('disclosure');
    expect(reason('<p>新浪新闻客户端：打开新浪新闻，随时随地看新闻</p>')).toBe('subscription pitch');
    expect(reason('<p>朝日新聞デジタルを無料で体験</p>')).toBe('subscription pitch');
    expect(reason('<p>西湖湖滨码头，游客排队等候乘坐游船，景区表示将增加班次。</p>')).toBeNull();
  });

  it('drops the author’s box after its heading, written as a heading or a paragraph', () => {
    for (const heading of ['<h3>About the author</h3>', '<p>この記事を書いた人</p>']) {
      const root = body(
        `<div><p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p><div>${heading}<div><a href="/r">北村遥</a><p>長野総局｜地域報道</p></div></div></div>`,
      ).firstElementChild!;
      pruneBoilerplate(root);
      expect(textOf(root)).not.toContain('長野総局');
      expect(textOf(root)).toContain('Councillors said');
    }
    expect(reason('<h2>About the author’s first novel</h2>')).toBeNull();
  });
});

describe('a picture library’s captions and meta lines', () => {
  it('trims the credit closing a caption, and leaves a paragraph’s own parentheses', () => {
    const root = body(
      `<div><p>${ARTICLE_PROSE}</p><p>${ARTICLE_PROSE}</p><figure><img src="/a.jpg" alt="Runners on Tower Bridge"><figcaption>Runners cross Tower Bridge. (Photo by Tolga Birkan/Getty Images)</figcaption></figure>` +
        '<p>We thanked the runner (photo by the finish line) and left.</p></div>',
    ).firstElementChild!;
    pruneBoilerplate(root);
    expect(textOf(root.querySelector('figcaption'))).toBe('Runners cross Tower Bridge.');
    expect(textOf(root)).toContain('(photo by the finish line)');
  });

  it('reads usage terms, a date beside a count in cells of their own, and a rating out of 5 with its comments', () => {
    const reason = (html: string) => boilerplateReason(body(html).firstElementChild!);
    expect(reason('<div><span>Editorial #:</span> <span>2150188300</span><span>Editorial use only</span></div>')).toBe('credit');
    expect(reason('<div><span>5 images</span><span>April 21, 2024</span></div>')).toBe('dateline');
    expect(reason('<div><span>4.6/5</span><span>128 commentaires</span></div>')).toBe('rating');
    expect(reason('<p>The editorial board met on April 21, 2024 to approve the new style guide for every desk.</p>')).toBeNull();
  });
});

describe('a pitch to follow the publisher', () => {
  const reason = (html: string) => boilerplateReason(body(html).firstElementChild!);

  it('goes, on its own or with its line of invitation', () => {
    expect(reason('<p>Follow Sky News on WhatsApp</p>')).toBe('subscription pitch');
    expect(
      reason('<p>Keep up with all the latest news from the UK and around the world by following Sky News. <a href="/w">Tap here</a></p>'),
    ).toBe('subscription pitch');
  });

  it('stays when it is the article’s own sentence', () => {
    expect(reason('<p>Follow the river on foot for two miles and the old mill comes into view.</p>')).toBeNull();
    expect(reason('<p>Join the queue on Facebook Marketplace, she said, and you will wait for weeks.</p>')).toBeNull();
  });
});
