import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatReply, type FakeOpenAi, startFakeOpenAi } from '../../engines/openai/fake-openai.ts';
import { CONTENT_POLICY } from '../../engines/policy.ts';
import { authHeader, createTestUser, type TestUser } from '../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

const URL = '/api/chat/genpro';
const FILTERED_TERM = CONTENT_POLICY.find((rule) => !rule.requiresAlso)?.terms[0] ?? '';

function post(t: TestApp, payload: unknown, token?: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: URL,
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

  it('needs a session', async () => {
    const res = await post(t, { message: 'How do I compile a master video?' });
    expect(res.statusCode).toBe(401);
    expect(res.json().success).toBe(false);
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
