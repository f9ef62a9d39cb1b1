import { escapeHtml } from '../../platform/mail/templates.ts';
import type { OutboxMessage } from '../../platform/mail/types.ts';

export function toOutboxDto(m: OutboxMessage) {
  return {
    id: m.id,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    transport: m.transport,
    sentAt: m.sentAt?.toISOString() ?? null,
    error: m.error,
    createdAt: m.createdAt.toISOString(),
  };
}

/** A plain page listing the outbox. Everything from the messages is escaped; their HTML is never rendered. */
export function renderOutboxPage(messages: OutboxMessage[], to?: string): string {
  const items = messages
    .map(
      (m) => `<article>
  <header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)}</span>
  <time datetime="${m.createdAt.toISOString()}">${m.createdAt.toISOString().replace('T', ' ').slice(0, 19)} UTC</time></header>
  ${m.error ? `<p class="error">Delivery failed: ${escapeHtml(m.error)}</p>` : ''}
  <pre>${escapeHtml(m.text)}</pre>
</article>`,
    )
    .join('\n');
  const filter = to ? ` to ${escapeHtml(to)}` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Outbox – GenPro Studio</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#0f1115;color:#e6e8ee}
main{max-width:820px;margin:0 auto;padding:24px}
h1{font-size:20px}
article{background:#181b22;border:1px solid #2a2f3a;border-radius:10px;padding:14px 16px;margin:12px 0}
header{display:flex;flex-wrap:wrap;gap:12px;align-items:baseline}
header span,time{color:#9aa3b2;font-size:13px}
pre{white-space:pre-wrap;font:14px/1.5 ui-monospace,monospace;margin:10px 0 0}
.error{color:#ff8a80}
</style>
</head>
<body>
<main>
<h1>Local outbox${filter}</h1>
<p>Mail the studio sends in embedded mode lands here, newest first. JSON: <code>/dev/mail.json?to=&lt;email&gt;</code></p>
${items || '<p>No messages yet.</p>'}
</main>
</body>
</html>`;
}
