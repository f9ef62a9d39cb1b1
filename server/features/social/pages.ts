import { createHash } from 'node:crypto';
import type { SocialPlatform } from '../../../common/api/social.ts';
import { SANDBOX_NAMES } from './sandbox/network.ts';

// Server-rendered pages of the sandbox networks and the OAuth callback: small, self-contained, no scripts
// except closing the callback tab.

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font-family:system-ui,sans-serif;background:#0f1115;color:#e8e9ec;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:520px;width:calc(100% - 32px);background:#181b22;border:1px solid #2a2f3a;border-radius:12px;padding:24px}
h1{font-size:20px;margin:0 0 12px}p{color:#a4a9b4;line-height:1.5}.row{display:flex;gap:12px;margin-top:20px}.row form{flex:1;display:flex}
button{flex:1;padding:10px 14px;border-radius:8px;border:1px solid #2a2f3a;font-size:15px;cursor:pointer;background:#232733;color:#e8e9ec}
button.pressed{border-color:#7c5cff;color:#c9bcff}button.primary{background:#7c5cff;border-color:#7c5cff;color:#fff}.badge{font-size:12px;color:#a4a9b4;text-transform:uppercase;letter-spacing:.06em}
.msg{white-space:pre-wrap;color:#e8e9ec;font-size:16px}img,video{max-width:100%;border-radius:8px;margin-top:12px}
</style></head><body><main>${body}</main>${script}</body></html>`;
}

export function consentPage(input: {
  platform: SocialPlatform;
  username: string | null;
  fields: Record<string, string>;
}): string {
  const name = SANDBOX_NAMES[input.platform];
  if (!input.username) {
    return page(
      `${name} sandbox`,
      `<span class="badge">${escapeHtml(name)} sandbox</span><h1>Sign in first</h1><p>Sign in to GenPro Studio in this browser, then connect ${escapeHtml(name)} again from the Publish tab.</p>`,
    );
  }
  const hidden = Object.entries(input.fields)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return page(
    `Connect ${name}`,
    `<span class="badge">${escapeHtml(name)} sandbox</span><h1>Allow GenPro Studio to post as ${escapeHtml(input.username)}?</h1>
<p>GenPro Studio will be able to read your profile and publish posts on the ${escapeHtml(name)} sandbox network. Posts appear on public pages of this server.</p>
<form method="post" action="/social/sandbox/${input.platform}/authorize">${hidden}<div class="row">
<button type="submit" name="decision" value="deny" data-testid="sandbox-deny">Deny</button>
<button type="submit" name="decision" value="approve" class="primary" data-testid="sandbox-approve">Approve</button></div></form>`,
  );
}

const CLOSE_TAB_SCRIPT = 'setTimeout(function(){window.close()},1200)';
/** The callback page's own policy: its styles and, by hash, the one script that closes the tab. */
export const CALLBACK_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  `script-src 'sha256-${createHash('sha256').update(CLOSE_TAB_SCRIPT).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A connected tab closes itself; a refused one stays open, so that its message can be read. */
export function callbackPage(ok: boolean, message: string): string {
  return page(
    ok ? 'Connected' : 'Not connected',
    `<h1 data-testid="oauth-result" data-ok="${ok}">${escapeHtml(ok ? 'Connected' : 'Not connected')}</h1><p>${escapeHtml(message)}</p>`,
    ok ? `<script>${CLOSE_TAB_SCRIPT}</script>` : '',
  );
}

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);

/** The chooser page's policy: its styles, and forms posting back to this studio only. */
export const CHOICE_PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * After a login that granted several accounts (the Facebook Pages a person manages): one button per account, each
 * posting the single-use choice back to `action` in this browser.
 */
export function accountChoicePage(input: {
  platform: SocialPlatform;
  title: string;
  hint: string;
  action: string;
  choiceId: string;
  choices: Array<{ id: string; name: string; followerCount: number | null }>;
}): string {
  const name = SANDBOX_NAMES[input.platform];
  const buttons = input.choices
    .map(
      (c) =>
        `<button type="submit" name="account" value="${escapeHtml(c.id)}" data-testid="choose-account" data-account="${escapeHtml(c.id)}">${escapeHtml(c.name)}${
          c.followerCount === null ? '' : ` · ${c.followerCount} ${plural(c.followerCount, 'follower')}`
        }</button>`,
    )
    .join('');
  return page(
    input.title,
    `<span class="badge">${escapeHtml(name)}</span><h1 data-testid="oauth-choose">${escapeHtml(input.title)}</h1><p>${escapeHtml(input.hint)}</p>
<form method="post" action="${escapeHtml(input.action)}"><input type="hidden" name="choice" value="${escapeHtml(input.choiceId)}"><div class="row" style="flex-direction:column">${buttons}</div></form>`,
  );
}

export function postPage(input: {
  platform: SocialPlatform;
  id: string;
  username: string;
  message: string;
  mediaUrls: string[];
  views: number;
  likes: number;
  followers: number;
  createdAt: Date;
  /** This visitor has pressed Like / Follow already: the button shows it pressed. */
  liked: boolean;
  following: boolean;
}): string {
  const name = SANDBOX_NAMES[input.platform];
  const media = input.mediaUrls
    .map((url) =>
      /\/api\/videos\/|\.(mp4|mov|webm)(\?|$)/i.test(url)
        ? `<video src="${escapeHtml(url)}" controls playsinline></video>`
        : `<img src="${escapeHtml(url)}" alt="">`,
    )
    .join('');
  const action = (verb: 'like' | 'follow', label: string, pressed: boolean) =>
    `<form method="post" action="/social/sandbox/${input.platform}/posts/${escapeHtml(input.id)}/${verb}"><button type="submit" data-testid="post-${verb}" aria-pressed="${pressed}"${pressed ? ' class="pressed"' : ''}>${label}</button></form>`;
  const handle = `@${escapeHtml(input.username)}`;
  return page(
    `${input.username} on ${name}`,
    `<span class="badge">${escapeHtml(name)} sandbox</span><h1>@${escapeHtml(input.username)}</h1>
<p><span data-testid="post-followers">${input.followers}</span> ${plural(input.followers, 'follower')}</p>
<p class="msg" data-testid="post-message">${escapeHtml(input.message)}</p>${media}
<p><span data-testid="post-views">${input.views}</span> ${plural(input.views, 'view')} · <span data-testid="post-likes">${input.likes}</span> ${plural(input.likes, 'like')} · ${escapeHtml(input.createdAt.toISOString().slice(0, 16).replace('T', ' '))} UTC</p>
<div class="row">${action('like', input.liked ? '✓ Liked' : 'Like', input.liked)}${action('follow', input.following ? `✓ Following ${handle}` : `Follow ${handle}`, input.following)}</div>`,
  );
}

export function notFoundPage(message: string): string {
  return page('Not found', `<h1>Not found</h1><p>${escapeHtml(message)}</p>`);
}
