import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tasks } from '../../db/schema/index.ts';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from '../../engines/openai/fake-openai.ts';
import { CONTENT_POLICY } from '../../engines/policy.ts';
import { SESSION_COOKIE } from '../../platform/auth/session.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const URL = '/api/chat/genpro';
const FILTERED_TERM = CONTENT_POLICY.find((rule) => !rule.requiresAlso)?.terms[0] ?? '';

let addresses = 0;
/** Signed-out calls are rate-limited per address: each test's signed-out calls come from their own. */
const newAddress = () => `10.0.0.${++addresses}`;

function post(t: TestApp, payload: unknown, token?: string, headers: Record<string, string> = {}, from?: string) {
  return t.app.inject({
    method: 'POST',
    url: URL,
    ...(from ? { remoteAddress: from } : {}),
    payload: payload as object,
    headers: { ...(token ? authHeader(token) : {}), ...headers },
  });
}

/** The `data:` events of an SSE body, parsed. */
function events(body: string): Array<Record<string, unknown>> {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as Record<string, unknown>);
}

describe('the local assistant (no LLM configured)', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUser(t.ctx.db, { credits: 10 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a how-to question by quoting the help page it used, named once in sources, never by its file path', async () => {
    const res = await post(t, { message: '  How do I compile a master video?  ' }, user.token);
    expect(res.statusCode, res.body).toBe(200);
    const json = res.json();
    expect(json.success).toBe(true);
    expect(json.sources).toEqual([
      { title: 'Cinema sequences and the master video', path: 'docs/help/sequences.md', url: '/api/help/sequences' },
    ]);
    // The source is named once, by `sources`: the text neither repeats it nor shows a file path (issue 18).
    expect(json.response).not.toContain('Cinema sequences and the master video');
    expect(json.response).not.toContain('docs/help');
    expect(json.response).not.toMatch(/\bSource:/);
    // A quote of the page itself, word for word.
    expect(json.response).toContain(
      '> To compile the master video, every sequence item must be completed first. Then press Export Master Video',
    );
    const page = await t.app.inject({ method: 'GET', url: '/api/help/sequences' });
    expect(page.statusCode).toBe(200);
    expect(page.json().data.markdown).toContain('To compile the master video, every sequence item must be completed');
  });

  it('says plainly it does not know an unrelated question and invents nothing', async () => {
    const res = await post(t, { message: 'what is the capital of Peru' }, user.token);
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(json.sources).toEqual([]);
    expect(json.response).toMatch(/^I don't know/);
    expect(json.response).not.toMatch(/Lima/i);
    expect(json.response).not.toContain('>');
    // It points to real pages only.
    for (const [, title] of json.response.matchAll(/“([^”]+)”/g)) {
      const slugs = [...(await import('./help-index.ts').then((m) => m.helpIndex())).pages.values()];
      expect(slugs.map((p) => p.title)).toContain(title);
    }
  });

  it('validates the message and the history', async () => {
    const empty = await post(t, { message: '   ' }, user.token);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe('Please enter a message');
    expect((await post(t, {}, user.token)).statusCode).toBe(400);
    expect((await post(t, { message: 'x'.repeat(2001) }, user.token)).statusCode).toBe(400);
    expect(
      (await post(t, { message: 'hi', conversationHistory: [{ role: 'system', content: 'x' }] }, user.token))
        .statusCode,
    ).toBe(400);

    const turn = (i: number) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` });
    const ten = Array.from({ length: 10 }, (_, i) => turn(i));
    const ok = await post(t, { message: 'How do I compile a master video?', conversationHistory: ten }, user.token);
    expect(ok.statusCode).toBe(200);
    const eleven = await post(
      t,
      { message: 'How do I compile a master video?', conversationHistory: [...ten, turn(10)] },
      user.token,
    );
    expect(eleven.statusCode).toBe(400);
    expect(eleven.json().error).toBe('Send at most 10 messages of history');
  });

  it('answers “How do I buy more credits?” from the credits top-up section, not the price list', async () => {
    const res = await post(t, { message: 'How do I buy more credits?' }, undefined, {}, newAddress());
    expect(res.statusCode, res.body).toBe(200);
    const json = res.json();
    expect(json.sources[0]).toEqual({
      title: 'Credits and billing',
      path: 'docs/help/credits-billing.md',
      url: '/api/help/credits-billing',
    });
    expect(json.response.startsWith('Buying credits:')).toBe(true);
    expect(json.response).toContain('> Open the credit top-up dialog (Add Credits, or click your balance)');
    // Synonyms: “purchase” and “top up” find the same section.
    for (const message of ['Where can I purchase credits?', 'how to top up my account']) {
      const other = await post(t, { message }, user.token);
      expect(other.json().response, message).toContain('Open the credit top-up dialog');
    }
  });

  it('greets a greeting and says what it can help with, instead of “I don’t know”', async () => {
    const from = newAddress();
    for (const message of ['hello', 'hi there', 'Hey!', 'good morning']) {
      const res = await post(t, { message }, undefined, {}, from);
      expect(res.statusCode).toBe(200);
      const json = res.json();
      expect(json.response, message).toMatch(/^Hello! I'm the GenPro assistant\./);
      expect(json.response).toContain('How do I buy more credits?');
      expect(json.response).not.toContain("I don't know");
      expect(json.sources).toEqual([]);
    }
    const thanks = (await post(t, { message: 'Thank you so much!' }, user.token)).json();
    expect(thanks.response).toBe("You're welcome! Ask me anything else about GenPro Studio.");
    // Signed in, the greeting already shows the balance.
    expect((await post(t, { message: 'hi' }, user.token)).json().response).toContain('You have 10 credits.');
  });

  it('answers an Arabic question in Arabic, from the matching help section', async () => {
    const arabicLetters = (text: string) => (text.match(/\p{Script=Arabic}/gu) ?? []).length;
    const from = newAddress();
    const res = await post(t, { message: 'كيف أشتري المزيد من الرصيد؟' }, undefined, {}, from);
    expect(res.statusCode).toBe(200);
    const json = res.json();
    // The Arabic help page answers it, in Arabic.
    expect(json.response).toContain('افتح نافذة شحن الرصيد');
    expect(json.response).not.toContain('Open the credit top-up dialog');
    expect(json.sources[0].url).toBe('/api/help/credits-billing?lang=ar');
    const arPage = await t.app.inject({ method: 'GET', url: '/api/help/credits-billing?lang=ar' });
    expect(arPage.json().data.markdown).toContain('افتح نافذة شحن الرصيد');
    // A task without an Arabic page is quoted from the English page, under a line saying so.
    const english = (
      await post(t, { message: 'كيف أجمع الفيديو النهائي (master video)؟' }, undefined, {}, from)
    ).json();
    expect(english.response.startsWith('هذا ما تقوله صفحة المساعدة')).toBe(true);
    expect(english.sources[0].url).toBe('/api/help/sequences');

    const hello = (await post(t, { message: 'مرحبا' }, undefined, {}, from)).json().response as string;
    expect(hello.startsWith('مرحباً! أنا مساعد GenPro.')).toBe(true);
    expect(arabicLetters(hello)).toBeGreaterThan(50);

    const unknown = (await post(t, { message: 'ما هي عاصمة البيرو' }, undefined, {}, from)).json();
    expect(unknown.response.startsWith('لا أعرف')).toBe(true);
    expect(unknown.sources).toEqual([]);

    const mine = (await post(t, { message: 'كم رصيدي؟' }, user.token)).json().response as string;
    expect(mine).toContain('رصيدك الحالي: 10 رصيد.');
  });

  it("answers the main tasks from their own page, in the asker's language (issue 30 point 10)", async () => {
    const arabicShare = (text: string) => {
      const letters = text.match(/\p{L}/gu) ?? [];
      return letters.filter((c) => /\p{Script=Arabic}/u.test(c)).length / Math.max(1, letters.length);
    };
    const cases: Array<[string, string, string]> = [
      ['How do I get my creator account approved?', 'docs/help/creator-approval.md', 'pending review'],
      ['How do I turn on two-factor authentication?', 'docs/help/account-security.md', 'authenticator app'],
      ['How do I request a payout of my earnings?', 'docs/help/credits-billing.md', 'Request payout'],
      ['How do I schedule a post for later?', 'docs/help/publishing.md', 'schedule a post'],
      ['How do I create a persona?', 'docs/help/personas-ugc.md', 'face-only image'],
      ['What tools does the canvas toolbar have?', 'docs/help/canvas.md', 'Select, Drag and Pan'],
      ['كيف أنشئ persona جديدة؟', 'docs/help/ar/personas-ugc.md', 'صورة للوجه'],
      ['كيف أحصل على الموافقة على حساب صانع المحتوى؟', 'docs/help/ar/creator-approval.md', 'قيد المراجعة'],
      ['كيف أفعّل المصادقة الثنائية؟', 'docs/help/ar/account-security.md', 'تطبيق مصادقة'],
      ['كيف أسحب أرباحي إلى البنك؟', 'docs/help/ar/credits-billing.md', 'طلب سحب'],
      // Diacritics and tatweel, as people type them.
      ['كيف أُجَدْوِل منشـوراً لوقت لاحق؟', 'docs/help/ar/publishing.md', 'لجدولة المنشور'],
      ['ما هي أدوات اللوحة؟', 'docs/help/ar/canvas.md', 'أداة التحديد'],
      ['كيف أغيّر جزءاً من الصورة بأداة التحديد السحري؟', 'docs/help/ar/magic-selector.md', 'ترسم فوق جزء من الصورة'],
      ['كيف أمزج عدة صور مرجعية؟', 'docs/help/ar/multi-reference.md', 'حتى 8 صور مرجعية'],
      ['كيف أنشئ حملة لعلامتي التجارية؟', 'docs/help/ar/campaigns.md', 'تحتاج الحملة إلى عنوان'],
    ];
    const from = newAddress();
    const asker = await createTestUser(t.ctx.db, { credits: 1 });
    for (const [question, page, words] of cases) {
      const json = (await post(t, { message: question }, asker.token)).json();
      expect(json.sources[0]?.path, question).toBe(page);
      expect(json.response, question).toContain(words);
      if (page.includes('/ar/')) {
        expect(arabicShare(json.response), question).toBeGreaterThan(0.8);
        expect(json.response).not.toContain('مكتوبة بالإنجليزية');
      } else expect(arabicShare(json.response), question).toBe(0);
    }
    // Approval is no longer answered with campaign text.
    const approval = (
      await post(t, { message: 'How do I get my creator account approved?' }, undefined, {}, from)
    ).json();
    expect(approval.sources.map((s: { path: string }) => s.path)).not.toContain('docs/help/campaigns.md');
  });

  it('signed in (bearer or session cookie), tells the user their own balance and recent tasks', async () => {
    const rich = await createTestUser(t.ctx.db, { credits: 4321 });
    const bearer = await post(t, { message: 'how many credits do I have?' }, rich.token);
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json().response.startsWith('You have 4321 credits.')).toBe(true);

    const cookie = await post(t, { message: 'What is my balance?' }, undefined, {
      cookie: `${SESSION_COOKIE}=${rich.token}`,
      'x-requested-with': 'XMLHttpRequest',
    });
    expect(cookie.json().response).toContain('You have 4321 credits.');

    expect((await post(t, { message: 'show my recent tasks' }, rich.token)).json().response).toContain(
      'You have no tasks yet.',
    );
    const at = new Date(Date.now() - 60_000);
    await t.ctx.db.insert(tasks).values({
      userId: rich.id,
      kind: 'video',
      status: 'failed',
      input: {},
      error: { code: 'engine_failed', message: 'The video engine timed out' },
      createdAt: at,
      updatedAt: at,
    });
    const failed = (await post(t, { message: 'why did my video fail?' }, rich.token)).json().response;
    expect(failed).toContain('Your recent tasks (newest first):');
    expect(failed).toContain('- video: failed');
    expect(failed).toContain('The video engine timed out');
    // Nobody else sees it.
    expect((await post(t, { message: 'my recent tasks' }, user.token)).json().response).not.toContain('timed out');
  });

  it('signed out, answers help questions without account data, and rate-limits a burst with 429', async () => {
    const from = newAddress();
    const res = await post(t, { message: 'how many credits do I have?' }, undefined, {}, from);
    expect(res.statusCode).toBe(200);
    const json = res.json();
    expect(json.response.startsWith('Sign in to see your own credits and recent tasks.')).toBe(true);
    expect(json.response).not.toMatch(/You have \d+ credits/);
    // A session cookie without X-Requested-With could be a cross-site form: it gets no account data either.
    const forged = await post(
      t,
      { message: 'how many credits do I have?' },
      undefined,
      { cookie: `${SESSION_COOKIE}=${user.token}` },
      from,
    );
    expect(forged.json().response).not.toContain('You have 10 credits');

    // The signed-out burst: 10 a minute per address, then 429; a signed-in user is not affected.
    const burst = await createTestApp();
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) codes.push((await post(burst, { message: 'upscale' })).statusCode);
      expect(codes.slice(0, 10).every((code) => code === 200)).toBe(true);
      expect(codes[10]).toBe(429);
      const limited = await post(burst, { message: 'upscale' });
      expect(limited.json()).toMatchObject({ success: false, code: 'rate_limited' });
      const member = await createTestUser(burst.ctx.db);
      expect((await post(burst, { message: 'upscale' }, member.token)).statusCode).toBe(200);
    } finally {
      await burst.close();
    }
  });

  it('is rate-limited per user: 20 a minute', async () => {
    const busy = await createTestUser(t.ctx.db);
    const other = await createTestUser(t.ctx.db);
    for (let i = 0; i < 20; i++) {
      expect((await post(t, { message: 'upscale' }, busy.token)).statusCode).toBe(200);
    }
    const limited = await post(t, { message: 'upscale' }, busy.token);
    expect(limited.statusCode).toBe(429);
    expect((await post(t, { message: 'upscale' }, other.token)).statusCode).toBe(200);
  });
});

describe('follow-up questions and live prices (issue 29 point 10)', () => {
  let t: TestApp;
  let prices: Record<string, number>;
  const configured = { videoPro: 7, videoStandard: 6, image: 2, image4k: 3, music: 1 };

  beforeAll(async () => {
    t = await createTestApp({ env: { LOCAL_PREVIEW_PRICES: JSON.stringify(configured) } });
    const member = await createTestUser(t.ctx.db);
    // The price list the studio charges: GET /api/ai/engines, local engines here.
    const engines = await t.app.inject({ method: 'GET', url: '/api/ai/engines', headers: authHeader(member.token) });
    prices = engines.json().prices.local;
    expect(prices).toMatchObject(configured);
  });
  afterAll(async () => {
    await t?.close();
  });

  const ask = async (message: string, conversationHistory: unknown[] = []) => {
    const res = await post(t, { message, conversationHistory }, undefined, {}, newAddress());
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { response: string; sources: Array<{ title: string }> };
  };
  const turns = (question: string, answer: string) => [
    { role: 'user', content: question },
    { role: 'assistant', content: answer },
  ];

  it('answers “and how much does it cost?” about the subject of the question before it', async () => {
    const video = await ask('How do I make a video?');
    const followUp = await ask('and how much does it cost?', turns('How do I make a video?', video.response));
    expect(followUp.response.startsWith('Videos:')).toBe(true);
    expect(followUp.response).toContain(`Veo with audio: ${prices.videoPro} credits.`);
    expect(followUp.response).toContain(`Veo without audio: ${prices.videoStandard} credits.`);

    const music = await ask('and how much does it cost?', turns('How do I make music?', 'Choose Music.'));
    expect(music.response).toContain(
      `Choose Music (genre, mood, instruments separated by commas, up to 10) for 1 credit`,
    );

    // Alone, the same words are not read as a video question.
    const alone = await ask('and how much does it cost?');
    expect(alone.response.startsWith('Videos:')).toBe(false);
    // A question that stands on its own is not bent by the one before it.
    const topUp = await ask('How do I buy more credits?', turns('How do I make a video?', video.response));
    expect(topUp.response.startsWith('Buying credits:')).toBe(true);
  });

  it('quotes the prices the studio charges (LOCAL_PREVIEW_PRICES here) and names the engine, never the vendor list', async () => {
    const answer = await ask('How much does a 4K image cost?');
    expect(answer.response).toContain(`a 4K image costs ${prices.image4k} credits`);
    expect(answer.response).toContain(`An image up to 2048 px on the long side costs ${prices.image} credits`);
    expect(answer.response).toContain('on the local preview engine');
    expect(answer.response).toMatch(/Prices are the studio's live price list: [^\n]*Nano Banana/);
    expect(answer.response).not.toContain('{credits:');
    expect(answer.response).not.toMatch(/\b(101|81) credits\b/);
    expect(answer.response).not.toContain('8 credits for 4K');

    const arabic = await ask('كم سعره؟', [{ role: 'user', content: 'كيف أصنع فيديو؟' }]);
    expect(arabic.response).toContain(`Veo with audio: ${prices.videoPro} credits.`);
    expect(arabic.response).toContain('على محرّك المعاينة المحلي');

    // The help page the answer links to shows the same live prices.
    const page = await t.app.inject({ method: 'GET', url: '/api/help/image-video-audio' });
    expect(page.json().data.markdown).toContain(`- Veo with audio: ${prices.videoPro} credits.`);
    expect(page.json().data.markdown).not.toContain('{credits:');
  });

  it('names a price item the price list knows in every token of the help pages', async () => {
    const { priceTokensOf } = await import('./prices.ts');
    const { helpIndex } = await import('./help-index.ts');
    for (const page of (await helpIndex()).pages.values()) {
      const written = new Set([...page.markdown.matchAll(/\{credits:([^}]*)\}/g)].map((m) => m[1]));
      expect(priceTokensOf(page.markdown).length, page.slug).toBe(written.size);
    }
  });
});

describe('with an OpenAI-compatible LLM configured', () => {
  let t: TestApp;
  let fake: FakeOpenAi;
  let user: TestUser;
  const delta = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp({ env: { OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'fake-model' } });
    user = await createTestUser(t.ctx.db, { credits: 123 });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('streams the answer as SSE, grounded by the help pages and the user’s credits', async () => {
    fake.replies.push({
      stream: [delta('Press Export '), delta('Master Video '), delta('once every item is completed.'), '[DONE]'],
      chunkSplit: 9,
    });
    const res = await post(
      t,
      {
        message: 'How do I compile a master video?',
        conversationHistory: [{ role: 'user', content: 'hello there' }],
      },
      user.token,
      { accept: 'text/event-stream' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const all = events(res.body);
    const deltas = all.filter((e) => 'delta' in e).map((e) => e.delta);
    expect(deltas.join('')).toBe('Press Export Master Video once every item is completed.');
    expect(all.at(-1)).toMatchObject({ done: true });
    const sources = (all.at(-1)?.sources ?? []) as Array<{ title: string }>;
    expect(sources[0]?.title).toBe('Cinema sequences and the master video');

    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(fake.requests.at(-1)?.body.stream).toBe(true);
    expect(sent).toContain('To compile the master video, every sequence item must be completed first.');
    expect(sent).toContain('Credits: 123');
    expect(sent).toContain('hello there');
  });

  it('answers JSON when the client does not ask for a stream', async () => {
    fake.replies.push(chatReply('Use Export Master Video in Cinema Sequences.'));
    const res = await post(t, { message: 'How do I compile a master video?' }, user.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, response: 'Use Export Master Video in Cinema Sequences.' });
    expect(res.json().sources[0].path).toBe('docs/help/sequences.md');
  });

  it('signed out, grounds the LLM with the help pages and no account data', async () => {
    fake.replies.push(chatReply('Open the credit top-up dialog.'));
    const res = await post(t, { message: 'How do I buy more credits?' });
    expect(res.statusCode).toBe(200);
    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(sent).toContain('Open the credit top-up dialog (Add Credits, or click your balance)');
    expect(sent).toContain('Not signed in: no account data.');
    expect(sent).not.toContain('Credits: ');
    expect(sent).toContain('Answer in the language of the question');
  });

  it('sends the conversation and the live prices with a follow-up, grounded by the earlier question’s pages', async () => {
    fake.replies.push(chatReply('Veo costs 5 credits here.'));
    const res = await post(
      t,
      {
        message: 'and how much does it cost?',
        conversationHistory: [
          { role: 'user', content: 'How do I make a video?' },
          { role: 'assistant', content: 'Pick a model and a duration.' },
        ],
      },
      user.token,
    );
    expect(res.statusCode).toBe(200);
    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(sent).toContain('User: How do I make a video?');
    expect(sent).toContain('Assistant: Pick a model and a duration.');
    expect(sent).toContain(
      `Veo with audio: ${t.ctx.engines.prices('video', 'veo-3.0-generate-001').videoPro} credits.`,
    );
    expect(sent).toContain("Prices are the studio's live price list");
    expect(sent).not.toContain('{credits:');
  });

  it('refuses a question that breaks the content policy before any event is sent', async () => {
    const before = fake.requests.length;
    const res = await post(t, { message: `how do I make ${FILTERED_TERM} videos` }, user.token, {
      accept: 'text/event-stream',
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({ success: false, code: 'content_filtered' });
    expect(fake.requests.length).toBe(before);
  });
});
