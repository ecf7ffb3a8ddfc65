/**
 * Words that mark a short block as boilerplate whatever its class names say (many sites' class
 * names are hashes: css-1x2y3z). English, German, French, Spanish, Italian and Japanese, the
 * languages in-article boilerplate most often comes in on the pages we see. Each cue is only
 * trusted on a short block; a paragraph of article text that happens to say "subscribe" is long.
 */

/** A teaser's label: "Read more: <a>Other story</a>". */
export const TEASER_LABEL =
  /^(read (more|also|next)|more on this( story)?|related|recommended|also read|lesen sie (auch|mehr)|mehr zum thema|auch interessant|à lire aussi|lire aussi|voir aussi|lee también|leer más|te puede interesar|leggi anche|potrebbe interessarti|あわせて読みたい|関連記事)\b/iu;

/** An advertising label left where an ad slot was. */
export const AD_LABEL =
  /^(advertisement|advert|ad|ads|sponsored|sponsored content|anzeige|werbung|publicité|publicidad|pubblicità|publicidade|advertentie|reklama|reklam|реклама|annons|annonse|mainos|διαφήμιση|פרסומת|إعلان|विज्ञापन|広告|广告|廣告|광고|pr)$/iu;

/** Subscription, paywall and newsletter pitches. */
export const SUBSCRIBE =
  /\b(subscribe|subscription|subscriber|unsubscribe|sign up|newsletters?|in your inbox|unlimited access|free articles?|continue reading|abonnier\w*|abonnement|digital-?abo\w*|abo|weiterlesen|abonnez|inscri\w*|suscr[ií]b\w*|suscripci[oó]n|iscriviti|abbonati|abbonamento)\b|有料会員|会員登録|ニュースレター|メールでお届け|無料で(体験|お試し|読める)|月額プラン|订阅(我们|本号|公众号)|扫码(关注|订阅|下载)|^[\p{L}]{0,8}客户端[：:]|下载.{0,8}客户端/iu;

/** A paywall's pitch, which quotes a price and is still no part of the article. */
export const PAYWALL_PITCH =
  /\b(subscribe now|unlimited access|free articles?|already a subscriber|start your (free )?trial|jetzt abonnieren|abonnez-vous|suscríbete|abbonati ora)\b/iu;

/** Share and follow blocks: the networks and verbs they are made of. */
export const SHARE =
  /\b(share|shares|sharing|tweet|facebook|whatsapp|linkedin|pinterest|instagram|reddit|copy link|email|e-mail|print|follow( us)?|tag us|teilen|partager|compartir|condividi|folgen|suivre|seguir|segui)\b|シェア|ポスト|フォロー/iu;

/**
 * A byline: "By Jane Doe", "von Anna Weber", or a name of two words or more in a script without
 * case ("By अंकित मिश्र", Devanagari's vowel signs are marks). Case matters here (no `i` flag: under
 * `iu`, \p{Lu} matches lower case too, and "By default, ..." or "Par exemple, ..." is no byline).
 */
export const BYLINE_NAME =
  /^(?:[Bb]y|[Vv]on|[Pp]ar|[Pp]or|[Dd]i|[Dd]e)\s+(\p{Lu}[\p{L}'’.-]*(\s+\p{Lu}[\p{L}'’.-]*)+|\p{Lo}[\p{L}\p{M}]*(\s+\p{Lo}[\p{L}\p{M}]*)+)/u;

/** A reading-time or publication line. */
export const BYLINE =
  /\b(min\.?|minutes?) (read|lesezeit|de lecture|di lettura|de lectura)\b|分で読めます|^\p{Script=Hangul}{2,4}\s*기자(\s|$)|^(last edited|edited by|posted|published|updated|veröffentlicht|aktualisiert|publié|mis à jour|publicado|actualizado|pubblicato|aggiornato)\b/iu;

/** A heading that opens a comment thread or a review section. */
export const THREAD_HEADING =
  /^(\d+\s+)?(comments?|responses?|replies|reactions|discussion|leave a (reply|comment)|join the (discussion|conversation)|(customer|guest) reviews?|reviews?|(customer |guest |product )?ratings? (&|and) reviews?|(customer )?questions? (&|and) answers?|kommentare?|leserkommentare|commentaires?|réactions|comentarios?|commenti|コメント|レビュー|kundenbewertungen|bewertungen|avis (des )?clients?|opiniones (del producto|de (los )?clientes)|reseñas( de (los )?clientes)?|recensioni( dei clienti)?|valutazioni e recensioni|avaliações( d[oe]s? clientes)?|klantbeoordelingen|beoordelingen|(oceny i )?recenzje( produktu)?|opinie klientów|カスタマーレビュー|商品レビュー|商品评价|用户评价|상품평|리뷰)(\s*\(\d+\))?\s*:?$/iu;

/**
 * A heading over what a shop puts beside every product: other products ("Customers also
 * bought", "You may also like") and its shipping and returns policy. The product's own sections
 * ("Description", "Specifications", "Materials & care") are not among them.
 */
export const SHOP_SECTION_HEADING =
  /^(customers (who (bought|viewed) this( item)? )?also (bought|viewed|liked|purchased)|frequently bought together|(related|similar|recommended) (products|items)|products related to this item|similar items( you (may|might) (also )?like)?|compare with similar items|sponsored products( related to this item)?|about (this|the) seller|seller( information| info| details)?|verkäufer(informationen)?|vendeur|vendedor|venditore|sprzedawca|verkoper|you (may|might) also (like|love)|recently viewed( products| items)?|more from this (shop|store|seller|brand)|questions|q\s?&\s?a|(vragen|fragen|questions|preguntas|domande|pytania|perguntas) (en|und|&|et|y|e|i) (antwoorden|antworten|réponses|respuestas|risposte|odpowiedzi|respostas)|(shipping|delivery) (&|and|\/) returns?|returns? (&|and|\/) (shipping|delivery|exchanges)|(shipping|delivery|returns?) (policy|information|info)|kunden kauften auch|das könnte (dir|ihnen) auch gefallen|ähnliche (produkte|artikel)|versand (&|und) rückgabe|vous aimerez aussi|produits similaires|livraison (&|et) retours|te puede interesar|productos relacionados|envío y devoluciones|potrebbe piacerti anche|prodotti correlati|spedizione e resi|andere kunden (kauften|interessierten sich) auch( für)?|les clients ont (également|aussi) (acheté|consulté)|(los clientes|quienes (compraron|vieron) este producto) también (compraron|vieron)|inni (kupili|oglądali) (również|też)|podobne (produkty|oferty)|klanten (kochten|bekeken) ook|vergelijkbare producten|quem (comprou|viu) (este produto )?também (comprou|viu)|produtos relacionados|この商品を見た人はこんな商品も(見ています|買っています)|この商品を買った人はこんな商品も買っています|関連商品|ショップ情報|販売者(情報)?|卖家(信息)?|판매자( 정보)?|看了又看|猜你喜欢|为你推荐)\s*:?$/iu;

const MONTH = [
  'january february march april may june july august september october november december',
  'jan feb mar apr jun jul aug sep sept oct nov dec',
  'januar jänner februar märz juni juli oktober dezember jän mär okt dez',
  'janvier février mars avril mai juin juillet août septembre octobre novembre décembre janv févr avr juil déc',
  'enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre ene abr ago dic',
  'gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre gen giu lug set ott',
]
  .join(' ')
  .split(' ')
  .join('|');
/** A month's name or abbreviation as a whole word ("Mar", "March", not "Market"). */
const MONTH_WORD = `(?<![\\p{L}\\p{N}])(${MONTH})(?![\\p{L}\\p{N}])\\.?`;

/**
 * A calendar date ("12 March 2024", "Mar 12, 2024", "Jan 2019", "2024-03-12", "12.03.2024",
 * "08-19-2023", "2024年3月12日"), or a day and a time without the year ("Mar 9 at 11:02", as
 * threads stamp this year's posts).
 */
export const DATE = new RegExp(
  `\\b\\d{1,2}(st|nd|rd|th)?\\.?\\s+(de\\s+)?${MONTH_WORD}\\s+(de\\s+)?\\d{4}\\b|${MONTH_WORD}\\s+(\\d{1,2},?\\s+)?\\d{4}\\b|\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b|\\b\\d{4}/\\d{1,2}/\\d{1,2}\\b|\\b\\d{4}\\.\\d{2}\\.\\d{2}\\b|\\b\\d{1,2}[-./]\\d{1,2}[-./]\\d{4}\\b|^((posted|asked|answered|edited|modified|updated|replied)\\s+(on\\s+)?)?${MONTH_WORD}\\s+\\d{1,2}(st|nd|rd|th)?,?\\s+(at\\s+)?\\d{1,2}:\\d{2}\\b|\\d{4}年\\d{1,2}月\\d{1,2}日`,
  'iu',
);

/** A relative timestamp ("2 hours ago", "vor 3 Tagen", "il y a 2 jours", "hace 5 días", "3日前"). */
export const AGO =
  /\b\d+\s+(seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s+ago\b|\bvor\s+\d+\s+(sekunden|minuten|stunden|tagen|wochen|monaten|jahren)\b|\bil y a\s+\d+|\bhace\s+\d+|\b\d+\s+(secondi|minuti|ore|giorni|settimane|mesi|anni)\s+fa\b|\d+\s*(秒|分|時間|日|週間|か月|年)前/iu;

/** A heading over the author's box ("About the author", "この記事を書いた人", "作者简介"): what follows it in its section is the box. */
export const AUTHOR_HEADING =
  /^(about the (author|writer)|über (den autor|die autorin)|zum autor|à propos de l[’']auteur|sobre (el|la) autor[a]?|l[’']autore|この記事を書いた人|この記事の(著者|筆者)|著者(プロフィール|紹介)|筆者プロフィール|作者简介|关于作者|작성자 소개)\s*:?$/iu;

/** A short author biography: "Jane Doe is a reporter who covers ...". */
export const BIO =
  /^(\p{Lu}[\p{L}'’.-]+\s){1,3}(is|was|ist|war|est|es|è)\s.{0,60}\b(writer|journalist|reporter|editor|correspondent|columnist|contributor|redakteur\w*|journalist\w*|autor\w*|korrespondent\w*|rédact\w*|chroniqueu\w*|periodista|redactor\w*|giornalista|redattor\w*|corrispondente)\b/iu;

/** Pagination and post-numbering lines of threads ("Page 1 of 3", "#2"). */
export const PAGER = /^(page|seite|página|pagina)\s+\d+\s+(of|von|de|di|sur)\s+\d+\b|^#\d+\b/iu;

/** Affiliate and sponsorship disclosures. */
export const DISCLOSURE =
  /\b(affiliate links?|disclosure policy|(may|might) earn (a )?(small )?commission|sponsored by|in partnership with|werbelinks?|liens? affiliés?|enlaces de afiliados|link di affiliazione)\b|^(特别声明|免责声明)|仅代表作者(本人)?观点|版权归.{0,12}所有|未经授权.{0,6}(禁止|不得)转载|無断転載/iu;

/** Ratings and reaction counters: "4.9 from 63 votes", "3 Likes", "12 replies". */
export const COUNTER =
  /^[★☆]*\s*\d+([.,]\d+)?\s+(from|out of|von|sur|de|su)\s+\d+\s+(votes?|ratings?|reviews?|stimmen|bewertungen|avis|votos|voti)\b|^\d+\s+(likes?|reactions?|votes?|upvotes?|points?|replies|views|antworten|réponses|respuestas|risposte|ratings?|reviews?|bewertungen|avis|valoraciones|recensioni)$/iu;

/** A star rating's summary: "4.6 out of 5 stars 2,847 ratings", "Rated 4.67 out of 5 based on 3 customer ratings", "★★★★☆ 2 reviews". */
const RATING_STARS = '(stars?|sternen?|étoiles?|estrellas?|stelle)';
const RATING_COUNT =
  '(based on\\s+)?\\(?\\d[\\d,.]*\\s?[kK]?\\)?\\s*(customer\\s+|user\\s+)?(ratings?|reviews?|votes?|stimmen|bewertungen|avis|votos|valoraciones|reseñas|voti|recensioni)?\\)?';
export const RATING = new RegExp(
  `^(rated\\s+)?[★☆]*\\s*\\d([.,]\\d+)?\\s*(out of|of|von|sur|de|su)\\s*5(\\s*${RATING_STARS}([\\s·|,:-]*${RATING_COUNT})?|[\\s·|,:-]*(based on\\s+)?\\(?\\d[\\d,.]*\\s?[kK]?\\)?\\s*(customer\\s+|user\\s+)?(ratings?|reviews?|votes?|stimmen|bewertungen|avis|votos|valoraciones|reseñas|voti|recensioni)\\)?)\\s*$|^[★☆]{3,}\\s*(\\(?\\d+\\)?\\s*(ratings?|reviews?|votes?)?)?$`,
  'iu',
);

/** Requests to comment, rate or share after a post or recipe. */
export const CALL_TO_ACTION =
  /\b(leave a (rating|comment|review)|let (me|us) know in the comments|rate this recipe|tried this recipe|did you make this)\b|\b(have you )?made this recipe\?/iu;

/** A thread's short invitation to join it ("Join the discussion", "Log in to reply"), judged on a short block only. */
export const THREAD_INVITATION =
  /^((join|add to) the (discussion|conversation)|post a (comment|reply)|(log|sign) in to (reply|comment|post|vote|like))(?![\p{L}\p{N}])/iu;

/** A pitch to follow the publisher on a network ("Follow Sky News on WhatsApp", "Keep up with the latest ... by following us"). */
export const FOLLOW_PITCH =
  /^(follow|join) [\p{L}\p{N} .&'’-]{1,40} on (whatsapp|instagram|x|twitter|facebook|threads|tiktok|telegram|google news|youtube|linkedin|bluesky)\s*[.!]?$/iu;
/** Its longer form, naming who to follow (case matters: "by following Sky News", not "by following the steps"). */
export const FOLLOW_INVITATION = /\b[Kk]eep up with (all )?the latest\b.{0,120}\b(by following (us\b|\p{Lu})|follow us\b)/u;

/**
 * An answer's badge ("Best reply", "Accepted answer", "Solved"), judged on a short block only.
 */
export const THREAD_STATUS =
  /^(solved|resolved|answered|best (reply|answer)|accepted( answer| solution)?|top answer|(recommended|verified|chosen) (answer|reply|solution))$/iu;

/** A thread's closed notice ("This thread has been locked ..."): judged on a thread page only. */
export const THREAD_CLOSED = /^this (thread|topic|question) (has been|was|is) (closed|locked|archived)\b/iu;

/** Counts with what they count ("288 points", "(2 children)", "12 replies"): what is left without them says whether a line is only counters. */
export const COUNTED =
  /\d[\d,.]*\s?[kKm]?\s?(points?|votes?|upvotes?|likes?|children|child|replies|reply|comments?|answers?|views?|reactions?|shares?|stars?)\b/giu;

/**
 * A site's copyright line: one that opens with the sign or the word ("© 2024 Example Ltd",
 * "Copyright 2019 ..."), or says all rights are reserved, in any of our languages.
 */
export const COPYRIGHT =
  /^(\d{4}(\s*[-–]\s*\d{4})?\s*)?(©|\(c\)\s*\d{4}|copyright(?![\p{L}\p{N}]))|\ball rights reserved\b|\balle rechte vorbehalten\b|(?<![\p{L}\p{N}])tous droits réservés(?![\p{L}\p{N}])|\btodos los derechos reservados\b|\btutti i diritti riservati\b|무단\s*전재|無断転載|禁止转载/iu;

/** A photo credit line: "Photograph: A. Name/Agency", "Foto: dpa", "Image by ...". */
export const CREDIT =
  /^(photo(graph)?s?|photography|(food|prop) styling|foto(s|grafie|grafía)?|images?|pictures?|bild(er)?|crédits?|credits?|illustrations?)\s*(by\b|:|©)/iu;

/**
 * Chinese news's credit lines: the staff line closing an article ("责任编辑：陈晓 图片编辑：金潇",
 * "(责编：王一帆)", "校对：刘威") and a photo's caption closing on its photographer ("……（記者陳昀攝）",
 * "……本报记者 林晓岚摄", "……澎湃新闻记者 李静 图", "……资料图"): the press there writes captions as a
 * plain paragraph under the picture, told only by that ending. The reporter's name is a name (two
 * to four characters, a few of them at most): "接受记者采访时展示了新馆的设计图" is a sentence.
 */
export const CJK_CREDIT =
  /^[(（]?(责任编辑|責任編輯|责编|責編|校对|校對|审校|審校|图片编辑|圖片編輯)\s*[:：]|([（(][^（）()]{0,24}(摄|攝|供图|供圖|提供)[)）]|(记者|記者)\s*[:：]?\s*[\p{Script=Han}·]{2,4}([、\s]\s*[\p{Script=Han}·]{2,4}){0,3}\s*(摄|攝|图|圖)|资料图片?|資料圖片?)$/u;

/** A credit closing a caption, in parentheses (tested on the caption's last parenthesis on): "(Photo by A. Name/Getty Images)", "(AP Photo/Name)", "(Foto: dpa)". */
export const TRAILING_CREDIT =
  /^\((AP |AFP |Reuters |EPA |dpa[- ])?(photo(graph)?s?|foto(s|grafía|grafia)?|image|picture|bild|illustration)\s*(by\b|:|\/)[^()]{1,80}\)$/iu;

/** An image library's terms and identifiers beside a picture ("Editorial use only", "Editorial #: 2150188300", "Royalty-free"). */
export const USAGE_TERMS = /^(editorial #|image id|asset id)\s*:?\s*\d|^(editorial use only|royalty[- ]free|rights[- ]managed)\.?$/iu;

/**
 * The currency vocabulary: any currency sign (Unicode's \p{Sc}: £ $ € ¥ ₹ ₩ ₽ ₺ ₫ ₪ ...) and the
 * currencies written as words or codes ("zł", "Kč", "kr", "lei", "Rs.", "Rp", "CHF", "INR", "円").
 * Codes that are also words or units next to a number ("try 3", "rub 2 tbsp", "6 ft", "2 TL" a
 * German teaspoon) are left out.
 */
const CURRENCY_WORD =
  '(zł|zl|kč|kr|lei|rs\\.?|rp|eur|usd|gbp|chf|inr|jpy|cny|rmb|krw|pln|czk|huf|ron|sek|nok|dkk|isk|brl|mxn|clp|aud|cad|nzd|sgd|hkd|zar|uah|aed|sar|руб\\.?|грн|лв)';
/** Signs, and the CJK currencies written as one character straight after the number ("4,980円"). */
const CURRENCY_SIGN = '[\\p{Sc}円元원]';
/** A currency sign, or a currency's word standing as a word ("499 kr", not "kreativ"). */
export const CURRENCY = new RegExp(`${CURRENCY_SIGN}|(?<!\\p{L})${CURRENCY_WORD}(?!\\p{L})`, 'iu');
/** A price: a currency sign or word next to a number ("₹1,649", "R$ 89,90", "1 990 Kč", "Rs. 499"; kept: watches follow prices). */
export const PRICE = new RegExp(
  `${CURRENCY_SIGN}\\s?\\d|(?<!\\p{L})${CURRENCY_WORD}\\s?\\d|\\d\\s?(${CURRENCY_SIGN}|${CURRENCY_WORD}(?!\\p{L}))`,
  'iu',
);
/**
 * A price on its own line ("189,99 €", "Price £ 79", "$44.97", "1 649 ₹", "€ 349,-", "199:-"):
 * a few letters before the number at most; whole units may end in a dash, as Dutch, German and
 * Nordic shops write them.
 */
export const PRICE_LINE = new RegExp(`^\\D{0,12}\\d[\\d\\s.,]*([.,:][-–])?(\\s?(${CURRENCY_SIGN}|${CURRENCY_WORD}))?\\*?$`, 'iu');

/**
 * A box for checking delivery, told by its field ("Enter Delivery Pincode", `autocomplete="postal-code"`,
 * "PLZ", "Code postal"): the fee or date it shows is the shop's, not the product's price.
 */
export const DELIVERY_FIELD =
  /(?<!\p{L})(pin ?code|post ?code|postal|zip|plz|postleitzahl|code postal|c[oó]digo postal|cap|cep|kod pocztowy|psč|irányítószám|delivery|shipping|postage|lieferung|versand|livraison|env[ií]o|spedizione|consegna|entrega|dostawa|bezorg\p{L}*|verzend\p{L}*|doprava|配送|配達|送料|郵便番号|邮编|邮政编码|운송|배송|우편번호)(?!\p{Ll})/iu;

/**
 * A forum member card's join date ("Joined: Jan 2019", "Join Date: Mar 2010", "Member since
 * 2012"). Cards are spans run together ("plot22Joined: Jan 2019", "bobRegistered: 2010"), so a
 * capitalised word may follow a name's letters; a lower-case one needs a word's start ("unregistered" is none).
 */
export const MEMBER_JOINED =
  /(?:(?<!\p{L})(?:[Jj]oined|[Jj]oin [Dd]ate|[Mm]ember [Ss]ince|[Rr]egistered|[Rr]egistriert|[Dd]abei [Ss]eit|[Mm]itglied [Ss]eit|[Ii]nscrit|[Ii]nscrito|[Rr]egistrado|[Ii]scritto|JOINED|REGISTERED)|(?<=\p{Ll})(?:Joined|Join Date|Member since|Registered|Registriert|Dabei seit|Mitglied seit|Inscrit|Inscrito|Registrado|Iscritto))(?!\p{L})\s*:?\s*\S/u;

/** A forum member card's post count ("Posts: 2,184", "Messages 512", "Beiträge: 40"). */
export const MEMBER_POSTS = /(posts|messages|beiträge|mensajes|messaggi|reputation|karma)\b\s*:?\s*\d/iu;

/**
 * A forum member card's statistics, a count beside what it counts either way round ("3 主题",
 * "帖子 120", "Posts: 2,184", "Reputation 41", "Beiträge 40"): three in a short block make the card.
 */
const MEMBER_STAT_WORD =
  '(posts|threads|topics|points|reputation|karma|solutions|beiträge|themen|mensajes|messaggi|主题|帖子|积分|回帖|精华|威望|金钱|贡献|投稿|スレッド|게시물|포인트)';
const MEMBER_STAT = new RegExp(`\\d[\\d,.]*\\s*${MEMBER_STAT_WORD}(?!\\p{L})|(?<!\\p{L})${MEMBER_STAT_WORD}\\s*:?\\s*\\d`, 'giu');
/** A member card's length at most: name, rank, counts and a control or two. */
export const MAX_MEMBER_CARD = 300;
export function isMemberStats(text: string): boolean {
  // A sentence that gives counts ends as sentences do; a card's last word is a count or a control.
  return text.length < MAX_MEMBER_CARD && !/[.!?。！？]["'”’)]?$/u.test(text) && (text.match(MEMBER_STAT)?.length ?? 0) >= 3;
}

/**
 * A member card's post count with its label's colon ("Posts: 212", "Beiträge: 40", "Messages:
 * 1,204", "帖子：120"), as SMF, Vanilla, phpBB and XenForo print it under the member's name.
 */
const MEMBER_POST_COUNT =
  /(?<!\p{L})(posts|messages|beiträge|mensajes|messaggi|mensagens|berichten|posty|wiadomości|帖子|投稿|回帖|게시물)\s*[:：]\s*\d[\d,.]*(?![\d\p{L}])/iu;
/** Words a card's line may hold beside its count: the member's rank ("Full Member", "Moderator"). */
const MAX_RANK_WORDS = 3;
/** Characters of a card's count line at most. */
const MAX_MEMBER_LINE = 60;

/**
 * Whether `text` is a member card's count line: the count and at most a rank, no sentence ("Member
 * Posts: 87"). The card's other lines (name, rank, "Logged") have nothing to know them by but it.
 */
export function isPostCountLine(text: string): boolean {
  const count = MEMBER_POST_COUNT.exec(text);
  if (!count || text.length > MAX_MEMBER_LINE) return false;
  const rest = (text.slice(0, count.index) + ' ' + text.slice(count.index + count[0].length)).trim();
  // A rank is words: "Messages: 10,000 / month" is a plan's allowance.
  return !/[^\p{L}\p{M}\s'’-]/u.test(rest) && (rest === '' || rest.split(/\s+/).length <= MAX_RANK_WORDS);
}

/**
 * A member card's other short lines: its rank or its status ("Newbie", "Full Member", "Moderator",
 * "Logged", "Offline"). A list whose lines count posts is a card with one of these (or a join
 * date) beside the count; without, it may be a plan's allowances ("Posts: 10,000", "Members: 500").
 */
export const MEMBER_CARD_LINE =
  /^(logged( in)?|online|offline|newbie|((new|junior|jr|senior|sr|full|hero|active|regular|valued|elite|veteran|premium|vip|forum|community) )?member|(global |super |forum )?moderator|administrator|admin|staff|neuling|mitglied|moderatorin|membre|nouveau membre|miembro|nuevo miembro|membro|nuovo utente|utente)$/iu;

/**
 * A link back to the page's top under each post ("Top", "Back to top", "Nach oben", "Haut de
 * page", "ページトップへ", "返回顶部"), with or without its arrow: told by its text on an in-page link.
 */
export const BACK_TO_TOP =
  /^[▲↑^⇧⬆\s]*((back|go|scroll|return) to (the )?top|to top|top( of (the )?page)?|nach oben|zurück nach oben|seitenanfang|haut de (la )?page|retour en haut( de (la )?page)?|volver arriba|ir arriba|subir|torna su|torna in alto|naar boven|do góry|voltar ao topo|ページ(の)?(トップ|先頭)へ?|トップへ戻る|返回顶部|回到顶部|맨 위로)[▲↑^⇧⬆\s]*$/iu;

/** A post's controls left as text in languages whose sites write them as bare links ("举报", "只看该作者", "返信"). */
export const POST_CONTROL =
  /^(举报|回复|引用|评分|分享|收藏|支持|反对|发消息|加为好友|只看该作者|倒序浏览|返回列表|通報|返信|引用する|신고|답글|공유)$/u;

/**
 * A forum member's signature box by a class or id token, compared without its "-" and "_"
 * ("post-signature", "post_signature", "signature_container"; Discuz!, most Chinese forums,
 * says "sign"). Whole tokens only, never a part of one: a bar's "signature-cocktails" is no
 * signature. Not "sig": Sphinx marks a documented function's signature so ("dt.sig"), the
 * page's very content. One list for the chrome rules and the thread's post finder.
 */
const SIGNATURE_NAMES: ReadonlySet<string> = new Set(['signature', 'signaturecontainer', 'postsignature', 'sign']);

/** Whether one class or id token names a signature box (see {@link SIGNATURE_NAMES}). */
export function isSignatureName(token: string): boolean {
  return SIGNATURE_NAMES.has(token.toLowerCase().replace(/[-_]/g, ''));
}

/** A forum's who-is-here line ("Users browsing this forum: No registered users and 4 guests"). */
export const WHO_IS_ONLINE =
  /\b(users|members|people) (who are )?(browsing|viewing|reading) this (forum|thread|topic|board)\b|^who is online\b/iu;

/** A forum signature's stock line ("Sent from my iPhone using Tapatalk"). */
export const SENT_FROM = /^(sent from my|gesendet von meinem|envoyé de mon|enviado desde mi|inviato dal mio)\s/iu;

/**
 * The line a forum puts over a quoted post, naming who wrote it ("oldgreaser wrote: ↑Tue Apr 16",
 * "Originally Posted by Fergie_Fred", "Jen said:"). The quoted words are content; this line is not.
 */
const QUOTE_ATTRIBUTION_HEAD =
  /^(?:\S+(?:\s\S+){0,3}\s+(?:wrote|said|writes|says|schrieb|a écrit|escribió|ha scritto)\s*:|(?:originally posted by|quote from|quote of|zitat von):?\s+\S+)/iu;
/** What may follow the attribution on its line: a date and time, an arrow, capitalised names ("Tue Apr 16, 2024 8:12 am ↑"). */
const QUOTE_ATTRIBUTION_TAIL = /^(?:[\s↑»›>→\d,.:/()-]+|(?:on|at|am|pm|um|le|à|de)(?!\p{L})|\p{Lu}\p{Ll}{0,11}\.?)*$/u;

/** Whether `text` is such a line, ending at the attribution (or a date after it); "The minister said: we will ..." is a quotation. */
export function isQuoteAttribution(text: string): boolean {
  const head = QUOTE_ATTRIBUTION_HEAD.exec(text);
  return head !== null && QUOTE_ATTRIBUTION_TAIL.test(text.slice(head[0].length));
}

/**
 * A shop's service notices beside a product ("Free UK delivery over £60", "30-day returns",
 * "Secure checkout", "Ships within 2 days"): the same on every product page. Stock status ("In
 * stock", "Sold out", "Only 3 left") is no part of them: it is what a restock watch follows.
 */
export const SHOP_NOTICE =
  /^((usually )?ships? (today|tomorrow|(in|within) (\d+([-–]\d+)?|one|two|three|a few|an?) (business |working )?(hours?|days?|weeks?))|free (\p{L}+ )?(delivery|shipping|returns?|postage)|\d+[- ]days? (free )?returns?|secure checkout|price match|add to (wish ?list|favou?rites)|kostenlose? (lieferung|versand|rücksendung)|livraison gratuite|retours? gratuits?|envío gratis|devoluciones gratis|spedizione gratuita|resi gratuiti)\b/iu;

/**
 * A seller's and fulfilment lines beside a product ("Sold and shipped by Walmart.com", "Ships
 * from Amazon", "Standard delivery 2-4 working days", "VAT included", "Secure payment by card",
 * "You save $15.00"): trusted on a shop page only, where a short line so worded is the buy box's.
 */
export const SELLER_NOTICE =
  /^((sold|shipped|fulfilled) (and|&) (shipped|sold|fulfilled) by|sold by(?! (the|weight|length|volume|unit|yard|metre|meter|piece|pound|kilo)\b)|(ships|dispatch(es|ed)?|shipped|sent) from|fulfilled by|(standard|express|next[- ]day|same[- ]day|home|economy|click (&|and) collect) (delivery|shipping|postage|collection)|(delivery|pickup|collection|click (&|and) collect) available|(vat|taxes?|tax|gst) (included|incl\.?)|(incl\.?|including|excl\.?|excluding|plus) (vat|tax|taxes|gst|shipping|postage)|(price )?when purchased online|get it (by|on|between) (\d+|today|tomorrow|(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*)|arrives (by|on|between) (\d+|today|tomorrow|(mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\p{L}*)|ready (for pickup )?(within \d|by \d|today|tomorrow)|ready for pickup in \d|free (with|on|over) [^.]{0,20}\borders?|(available[,.]?\s*)?delivery time\s*:?\s*\d|return policy|secure (payment|transaction)s?|(you )?save\s*:\s*[£$€\d]|(you )?save\s*[£$€]\s?\d|(you )?save \d+\s?%(\s*$| on any)|inkl\.? (mwst|ust)|(mwst|ust)\.? inkl|tva incluse|iva incluid[ao]|iva inclusa)(?!\p{Ll})/iu;

/**
 * The vocabulary of a rating summary and its counts ("4.3 out of 5 Stars. 1287 reviews (1,287)",
 * "★★★★★ 38 Ratings · 2,104 Saves",
 * "A star rating of 4.7 out of 5.", "4.7 out of 5 (58) Read reviews", "99.8% positive"): a line
 * that is nothing but these and numbers is a rating widget, whatever it is wrapped in.
 */
const RATING_VOCABULARY =
  /(?<!\p{L})((a )?(star )?rat(ed|ings?)( of)?|(out )?(of|von|sur|de|su)\s*5(?!\d)|\/\s*5(?!\d)|(read|see|write|show)( all| a)?|rate( this)?( recipe)?|(rezept )?bewerten|(customer |verified )?(reviews?|ratings?|votes?|stars?|photos?|saves|saved|stimmen|bewertungen|sternen?|avis|étoiles?|estrellas?|valoraciones|reseñas|voti|recensioni|stelle)|%\s*positive( feedback)?|comments?|commentaires?|kommentare?|comentarios?|commenti)(?!\p{L})|件/giu;

/** Whether `text` is a rating widget's line: a digit, a rating word, and nothing else but numbers. */
export function isRatingTally(text: string, shop = false): boolean {
  if (!/\d/.test(text) || text.length >= 80) return false;
  // Questions are counted beside a product's reviews; elsewhere "Questions 1-5" is an exercise.
  const rest = text.replace(RATING_VOCABULARY, '');
  const left = shop ? rest.replace(QUESTION_COUNT, '') : rest;
  return rest !== text && !/\p{L}/u.test(left);
}

/** A product page's count of its buyers' questions ("48 Q&A", "12 questions"). */
const QUESTION_COUNT = /(?<!\p{L})(questions?|q\s?&\s?a)(?!\p{L})/giu;

/** A nutrient as nutrition panels name it (English, German, French, Spanish, Italian), energy too ("Energy 1712kJ", "Energia 238 kcal"). */
const NUTRIENT =
  '(?<!\\p{L})(calories|kcal|cal|(total |saturated |trans )?fat( total)?|saturates|carbs|(total )?carbohydrates?|(total )?sugars?|(dietary )?fib(er|re)|protein|sodium|salt|cholesterol|energy|kalorien|energie|brennwert|fett|kohlenhydrate|zucker|eiweiß|ballaststoffe|énergie|glucides|lipides|matières grasses|protéines|sucres|fibres|energía|grasas|hidratos|carbohidratos|azúcares|proteínas|energia|grassi|carboidrati|zuccheri|proteine)(?!\\p{L})';
/** An amount's unit on a nutrition panel. */
const NUTRIENT_UNIT = '(k?cal|kj|g|mg|grams?|milligrams?)';
/** A nutrient with its amount, either way round ("248 Calories", "11 grams fat", "Fat: 20g", "kcal452", "Energy 1712kJ"). */
const NUTRIENT_AMOUNT = new RegExp(
  `\\d+([.,]\\d+)?\\s*${NUTRIENT_UNIT}?\\s*${NUTRIENT}|${NUTRIENT}\\s*:?\\s*\\d+([.,]\\d+)?\\s*${NUTRIENT_UNIT}?`,
  'giu',
);
/** What else a nutrition panel says: its title, the serving it counts, daily-value percentages. */
const NUTRITION_WORDS =
  /nutrition(al)?( facts| information| info| analysis)?|(amount )?per (serving|portion|100 ?g)|serving( size)?|servings|portion|yield|\d+\s*%\s*(daily value|dv)?|% daily value\*?|nährwerte|(pro|je) portion|valeurs nutritionnelles|valeur nutritive|par portion|información nutricional|por (porción|ración)|valori nutrizionali|per porzione/giu;
/** Nutrients with their amounts that make a panel whatever its serving line says ("1 chicken thigh with about 2 tablespoons sauce: 290 calories, ..."). */
const MANY_NUTRIENTS = 5;

/**
 * A recipe's nutrition panel: three nutrients or more with their amounts, and little else
 * ("Nutrition Facts (per serving) 248 Calories 7g Fat 38g Carbs 8g Protein"). A sentence that
 * names amounts ("Each slice has about 250 calories, 12g fat and 4g protein, so ...") has words besides.
 */
export function isNutritionPanel(text: string): boolean {
  const amounts = text.match(NUTRIENT_AMOUNT)?.length ?? 0;
  // Two are enough under the panel's own words ("Serving Size: 1/4 of recipe Calories: 412 Protein: 13g",
  // WP Recipe Maker's "Serving: 1 bowl Calories: 298 Protein: 16g").
  if (amounts < 3 && !(amounts === 2 && /nutrition|serving size|per serving|^serving\s*:/iu.test(text))) return false;
  const letters = (s: string) => s.match(/\p{L}/gu)?.length ?? 0;
  const rest = text.replace(NUTRIENT_AMOUNT, ' ').replace(NUTRITION_WORDS, ' ');
  return letters(rest) <= (amounts >= MANY_NUTRIENTS ? 1 / 3 : 0.25) * letters(text);
}

/** The small print under a nutrition panel ("Percent Daily Values are based on a 2,000 calorie diet"). */
export const NUTRITION_NOTE =
  /\b(daily values? (are|is) based on|nutrition(al)? (information|info|data|facts) (is|are) (an )?(estimate|calculated|approximate)|estimate based on available ingredients|substitute for a professional nutritionist)/iu;

/** The heading over a recipe's ingredient list ("Ingredients", "Zutaten", "Składniki", "材料（2人前）"), with a count or servings after it at most. */
export const INGREDIENTS_HEADING =
  /^(ingredients|zutaten|ingrédients|ingredientes|ingredienti|składniki|ingrediënten|ingredienser|ingrediencie|ingredience|材料|食材|用料|재료)\s*([(（][^)）]{0,20}[)）])?\s*:?$/iu;

/** A step's bare number label over its text ("Step 1", "Étape 2", "Schritt 3"): the list numbers the steps already. */
export const STEP_LABEL = /^(step|étape|etape|schritt|paso|passo|stap|steg)\s*\d{1,2}\s*[:.]?$/iu;

/**
 * A price's label without the price, and a product tile's badge ("Regular price", "Sale price",
 * "Sale", "New", "Best seller"): screen-reader labels and stickers of a shop's price box. Stock
 * status ("Sold out") is no badge here: a restock watch follows it.
 */
export const PRICE_LABEL =
  /^((regular|sale|unit|current|original|list|old|was|now|our|your) price|price|sale|on sale|new|new in|best ?seller|top seller|online only)\s*:?$/iu;

/**
 * A shop's item code on a line of its own ("SKU: HH-WRAP-3W", "Item No. FW-RDG28", "Article
 * number 205.518.73"): the shop's stock-keeping, one code with a digit after the label.
 */
export const PRODUCT_CODE =
  /^(sku|item (no\.?|number|#)|article (no\.?|number)|art\.?[- ]?nr\.?|artikelnummer|product (code|id|number)|style (no\.?|number|#)|réf(érence)?\.?\s*:)\s*[:#]?\s*(?=[\p{L}\d.\-/]*\d)[\p{L}\d][\p{L}\d.\-/]*$/iu;

/**
 * A recipe card's controls and their labels, left as text once the buttons go ("Prevent your
 * screen from going dark", "Scale", "1x 2x 3x", "Original recipe (1X) yields 8 servings", "Jump
 * to Recipe", "Print", "Pin"), and its link to the site's shopping list ("Add to shopping list",
 * "Adicionar à lista de compras", "買い物リストに追加").
 */
export const RECIPE_CONTROL =
  /^(prevent (your )?screen from (going dark|turning off|sleeping)|cook mode|keep (the )?screen (on|awake)|scale|(\d(\/\d)?x\s*){2,4}|original recipe \(?\d+x\)? yields? \d+ servings?|jump to (the )?(recipe|nutrition( facts)?|video)|print( recipe)?|pin( it| recipe)?|save( recipe)?|(add (ingredients )?to (your |my |the )?)?(shopping|grocery) list|(zur |auf die )?einkaufsliste( hinzufügen)?|ajouter à (la|ma) liste de courses|(añadir|agregar) a (la )?lista de (la )?compras?|aggiungi alla lista della spesa|adicionar à lista de compras|dodaj do listy zakupów|(お?買い物リスト)に(追加|入れる)|加入购物清单)$/iu;

/**
 * A heading over the photos and notes readers post of a recipe they made (Cookpad's
 * "Cooksnaps", Japanese sites' "つくれぽ"): their say, like reviews.
 */
export const MADE_IT_HEADING = /^((みんなの)?つくれぽ|cooksnaps?)(\s*[(（]?\d[\d,]*件?[)）]?)?\s*:?$/iu;

/**
 * The label cell of a buy box's or a listing's row about the sale rather than the thing sold
 * ("Dispatches from | Amazon", "Sold by | Larkspur Ltd", "Returns | Returnable within 30 days",
 * "Payment | Secure transaction", "Best Sellers Rank | #1,204"): judged on a shop page only.
 */
export const SALE_ROW_LABEL =
  /^((dispatche[sd]|ships|shipped|sent) from|sold by|seller|fulfil?led by|returns?( policy)?|payments?|postage|delivery|shipping( cost)?|customer (reviews?|ratings?)|average (customer )?rating|best ?sellers? rank)\s*:?$/iu;

/** The label of a post's or recipe's taxonomy line ("Tags: Miso, Oat", "Filed under", "Category: Dinner", "Schlagwörter:"). */
const TAXONOMY_LABEL =
  /^(tags?|tagged( with| as)?|filed (under|in)|categories|category|schlagwörter|étiquettes|catégories?|etiquetas|categorías?|categorie|tagi|kategorie|kategorien|タグ|カテゴリー?|标签|分类)(?![\p{L}\p{N}])\s*/iu;
/**
 * Keyword and topic labels: a recipe card's filing ("Keywords: chickpea curry, vegan curry"), but
 * elsewhere as often a paper's own keywords or a talk's topics, so only read on a recipe's page.
 */
const KEYWORD_LABEL = /^(topics|keywords?|stichwörter|mots[- ]clés|palabras clave|argomenti|parole chiave)(?![\p{L}\p{N}])\s*/iu;
/** Terms of a taxonomy line at most, and characters of one term. */
const MAX_TERMS = 12;
const MAX_TERM = 30;

/**
 * A taxonomy line: its label alone (its links gone with the chrome), or the label with a short
 * list of terms that are links ("Tags: <a>Miso</a>, <a>Oat</a>"). On a recipe's page the card's
 * terms are often plain text ("Category: Dinner"); elsewhere a label over plain terms is the
 * page's own ("Category: Best Documentary Feature"). A sentence ("Tags are free-form labels ...")
 * has no colon and no linked terms.
 */
export function isTaxonomyLine(text: string, linkedLength: number, recipe = false): boolean {
  const label = TAXONOMY_LABEL.exec(text) ?? (recipe ? KEYWORD_LABEL.exec(text) : null);
  if (!label) return false;
  let rest = text.slice(label[0].length);
  if (rest === '' || rest === ':' || rest === '：') return true;
  // Linked terms: half the terms' text at least in links (the label, often long, is no term).
  if (linkedLength < 0.5 * rest.length && !(recipe && /^[:：]/u.test(rest))) return false;
  rest = rest.replace(/^[:：]\s*/u, '');
  const terms = rest.split(/[,、|·•]/u).map((term) => term.trim());
  return terms.length <= MAX_TERMS && terms.every((term) => term.length > 0 && term.length <= MAX_TERM && !/[.!?。！？]/u.test(term));
}

/**
 * The vocabulary of a picture's or a text's licence line ("Public domain (CC0)", "Licensed under
 * CC BY-NC-SA 4.0", "Download image · CC BY 2.0", "Creative Commons Attribution-ShareAlike 4.0
 * International License").
 */
const LICENCE_VOCABULARY =
  /(?<![\p{L}\p{N}])(public domain|cc0|cc[- ]by(-(sa|nc|nd))*|creative commons|attribution|sharealike|share-alike|noncommercial|non-commercial|noderivatives|international|licen[cs]ed?|released|under|the|a|some rights reserved|download|image|photo|domaine public|gemeinfrei|dominio p[uú]blico|pubblico dominio)(?![\p{L}\p{N}])/giu;

/**
 * A licence line: a licence's name ("CC0", "CC BY", "Creative Commons", "Public domain") and
 * nothing else but its vocabulary and a version. A sentence that names a licence has words besides.
 */
export function isLicenceLine(text: string): boolean {
  if (
    text.length >= 120 ||
    !/(?<![\p{L}\p{N}])(public domain|cc0|cc[- ]by|creative commons|domaine public|gemeinfrei|dominio p[uú]blico|pubblico dominio)(?![\p{L}\p{N}])/iu.test(
      text,
    )
  )
    return false;
  return !/\p{L}/u.test(text.replace(LICENCE_VOCABULARY, ''));
}

/**
 * A heading over the author's or publisher's other work ("More artwork by Mira Tanaka", "More
 * recipes by Katrin Bauer", "More posts from this journal", "More stories from NPR"): a teaser
 * section, whatever its tiles hold (often only pictures).
 */
export const MORE_FROM_HEADING =
  /^(more (artwork|art|works?|photos|pictures|images|projects|shots|galleries|albums|posts|stories|videos|recipes|articles) (by|from)|weitere (bilder|fotos|werke|beiträge|artikel|rezepte) von|plus (de|d[’'])\s?(photos|projets|œuvres|articles|recettes) de|más (fotos|obras|artículos|recetas) de|altre (foto|opere|ricette) di|altri (articoli|progetti) di)(?![\p{L}\p{N}])/iu;

/**
 * A recipe card's taxonomy labels, each in an element of its own before its terms ("Course |
 * Cake", "Cuisine | British", "Diet: | Vegan", "Keywords: | ..."): the site's filing of the
 * recipe, not the recipe.
 */
export const RECIPE_TAXONOMY_LABEL =
  /^(course|cuisine|diet|keywords?|category|categories|tags|gang|küche|kategorie|ernährung|schlagwörter|plat|catégorie|régime|mots[- ]clés|plato|cocina|categoría|dieta|palabras clave|portata|cucina|categoria|parole chiave)\s*[:：]?$/iu;

/**
 * A wire dateline set apart from the story's first paragraph, ending in its dash ("London CNN —",
 * "PARIS (AFP) –"): a place and a source, capitalised words only, no sentence.
 */
export const DATELINE_LEAD = /^\p{Lu}[\p{L}'’.]*(\s+\(?\p{Lu}[\p{L}'’.&]*\)?){0,4}\s*[—–]$/u;

/** Class words of a note set in the article's text (docs' admonitions: "note", "tip", "warning"). */
const CALLOUT = /\b(note|callout|tip|warning|info|admonition)\b/i;

/** A class naming a docs callout box outright (Mintlify's "callout", Sphinx's and Docusaurus's "admonition"). */
export const CALLOUT_BOX = /callout|admonition/i;

/**
 * Whether `classes` name a callout: a class that is a callout's word whole ("note", "tip") or as
 * a BEM modifier (Starlight's "starlight-aside--note"), or names a callout box outright. A word
 * inside a class is not one: "author-info" and "post-info" are a post's byline boxes.
 */
export function namesCallout(classes: string): boolean {
  return classes.split(/\s+/).some((name) => {
    const modifier = name.lastIndexOf('--');
    const kind = modifier < 0 ? name : name.slice(modifier + 2);
    return CALLOUT_BOX.test(name) || CALLOUT.exec(kind)?.[0].length === kind.length;
  });
}

/**
 * A docs site's banner over a page of another version than the current one: Laravel's "You're
 * browsing the documentation for an old version", Read the Docs' "You are not reading the most
 * recent version of this documentation", Docusaurus's "This is documentation for X, which is no
 * longer actively maintained" / "This is unreleased documentation".
 */
export const OTHER_VERSION_BANNER =
  /\byou(?:'re|’re| are) (?:browsing|viewing|reading|looking at) (?:the )?(?:documentation|docs) for (?:an? )?(?:old|older|outdated|previous|unreleased|unsupported)\b|\byou are not (?:reading|viewing) the (?:most recent|latest) version\b|\bthis is (?:the )?documentation for .{1,60}, which is no longer (?:actively )?maintained\b|\bthis is unreleased documentation\b/iu;

/** A heading over a document's own references: "See also", "Next steps", "Further reading". */
export const OWN_REFERENCES_HEADING =
  /^(see also|next steps?|further reading|siehe auch|nächste schritte|weiterführende (links|literatur)|voir aussi|étapes suivantes|véase también|pasos siguientes|vedi anche|passaggi successivi|zie ook|volgende stappen)\s*:?$/iu;

/** The label of a page's table of contents (docs themes: "On this page", "In this article"). */
export const TOC_LABEL =
  /^(on this page|contents|table of contents|in this article|in this section|auf dieser seite|inhalt|inhaltsverzeichnis|sur cette page|dans cet article|table des matières|en esta página|en este artículo|contenido|in questa pagina|in questo articolo|indice|op deze pagina|inhoud|nesta página|目次|目录)\s*:?$/iu;
