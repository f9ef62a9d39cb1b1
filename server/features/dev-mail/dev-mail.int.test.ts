import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { register } from '../auth/testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '1000' } });
});
afterAll(async () => {
  await t?.close();
});

interface OutboxJson {
  success: boolean;
  data: {
    id: string;
    to: string;
    subject: string;
    text: string;
    createdAt: string;
    sentAt: string | null;
    transport: string;
  }[];
}

describe('/dev/mail', () => {
  it('lists messages newest first as JSON, filtered by recipient', async () => {
    await t.ctx.mail.send({ to: 'one@example.com', subject: 'First', text: 'first body' });
    await t.ctx.mail.send({ to: 'two@example.com', subject: 'Other', text: 'other body' });
    await t.ctx.mail.send({ to: 'one@example.com', subject: 'Second', text: 'second body' });

    const res = await t.app.inject({ method: 'GET', url: '/dev/mail.json?to=ONE@example.com' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as OutboxJson;
    expect(body.success).toBe(true);
    expect(body.data.map((m) => m.subject)).toEqual(['Second', 'First']);
    expect(body.data[0]).toMatchObject({ to: 'one@example.com', text: 'second body', transport: 'outbox' });
    expect(body.data[0].sentAt).not.toBeNull();

    const all = (await t.app.inject({ method: 'GET', url: '/dev/mail.json' })).json() as OutboxJson;
    expect(all.data.length).toBeGreaterThanOrEqual(3);
    expect(all.data[0].subject).toBe('Second');
    const limited = (await t.app.inject({ method: 'GET', url: '/dev/mail.json?limit=1' })).json() as OutboxJson;
    expect(limited.data).toHaveLength(1);
  });

  it('shows the verification mail of a sign-up, HTML-escaped', async () => {
    const reg = await register(t.app, { first_name: '<script>alert("x")</script>' });
    const res = await t.app.inject({ method: 'GET', url: `/dev/mail?to=${encodeURIComponent(reg.email)}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(res.body).toContain(reg.email);
    expect(res.body).toMatch(/verification code is: \d{6}/);
  });

  it('escapes every field it shows', async () => {
    await t.ctx.mail.send({
      to: 'esc@example.com',
      subject: '<b>bold</b> & "quoted"',
      text: '<img src=x onerror=alert(1)>',
    });
    const res = await t.app.inject({ method: 'GET', url: '/dev/mail?to=%3Cb%3E' });
    expect(res.body).toContain('Local outbox to &lt;b&gt;');
    const page = await t.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(page.body).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;');
    expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.body).not.toContain('<img');
  });

  it('is not there when SMTP is configured', async () => {
    const smtp = await createTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    try {
      expect(smtp.app.hasRoute({ method: 'GET', url: '/dev/mail' })).toBe(false);
      expect(smtp.app.hasRoute({ method: 'GET', url: '/dev/mail.json' })).toBe(false);
      expect(t.app.hasRoute({ method: 'GET', url: '/dev/mail.json' })).toBe(true);
    } finally {
      await smtp.close();
    }
  });
});
